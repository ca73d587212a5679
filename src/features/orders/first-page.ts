import { currentToken } from '../../api/session.ts';
import { getLabOrders, type LabOrderList } from '../../api/lab-orders.ts';

// An early first page is used only this soon after it was asked for: the list is the screen the
// app opened on, not one the user comes back to later (which asks afresh).
const EARLY_PAGE_FRESH_MS = 10_000;

let early: { at: number; page: Promise<LabOrderList> } | null = null;

/**
 * Asks for the first page of orders while the list's code is still on its way (the router calls
 * this when the route first matches), so on a slow link the two downloads overlap instead of
 * following each other. Signed out, nothing is asked: the sign-in screen comes instead.
 */
export function startFirstOrdersPage(): void {
  if (!currentToken()) return;
  const page = getLabOrders();
  // The list reports a failure when it takes the page; until then it is not unhandled.
  page.catch(() => undefined);
  early = { at: Date.now(), page };
}

/** The page startFirstOrdersPage asked for, once, if it is still fresh; otherwise null. */
export function takeFirstOrdersPage(now = Date.now()): Promise<LabOrderList> | null {
  const taken = early;
  early = null;
  return taken && now - taken.at <= EARLY_PAGE_FRESH_MS ? taken.page : null;
}
