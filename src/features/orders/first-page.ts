import { currentToken, knownAdmin } from '../../api/session.ts';
import { getLabOrders, type LabOrderList } from '../../api/lab-orders.ts';
import { ADMIN_OPENING_FILTERS } from '../../domain/order-filters.ts';
import { preloadAdminParts } from './admin-parts.ts';

// An early first page is used only this soon after it was asked for: the list is the screen the
// app opened on, not one the user comes back to later (which asks afresh).
const EARLY_PAGE_FRESH_MS = 10_000;

/** What the lab is asked for: the admin's filters and the merge selection's photographer ('' and null for none). */
export interface ListScope {
  filters: string;
  photographerId: string | null;
}

/** The early page: asked at `at`, and the answer itself once it is in (`answered`). */
let early: { at: number; filters: string; page: Promise<LabOrderList>; answered: LabOrderList | null } | null = null;

/**
 * Asks for the first page of orders while the list's code is still on its way (the router calls
 * this when the route first matches), so on a slow link the two downloads overlap instead of
 * following each other. Signed out, nothing is asked: the sign-in screen comes instead.
 */
export function startFirstOrdersPage(): void {
  if (!currentToken()) return;
  // An admin's list opens with HIDE OPEN and HIDE MY ORDERS on (docs/orders.md §4): asked with them
  // the first time, not unfiltered and then again.
  const admin = knownAdmin();
  if (admin) preloadAdminParts();
  const filters = admin ? ADMIN_OPENING_FILTERS : '';
  const page = getLabOrders(filters ? { filters } : {});
  // The list reports a failure when it takes the page; until then it is not unhandled.
  page.catch(() => undefined);
  const asked = { at: Date.now(), filters, page, answered: null };
  early = asked;
  // Kept as a value too: the list, when it opens after the answer, draws it in its first render.
  page.then((p) => {
    if (early === asked) early.answered = p;
  }, () => undefined);
}

/** Whether the early page is of this scope and still fresh. */
const fits = (taken: NonNullable<typeof early>, scope: ListScope, now: number) => taken.filters === scope.filters && !scope.photographerId && now - taken.at <= EARLY_PAGE_FRESH_MS;

/**
 * The early page's answer if it is already in (and of this scope, still fresh), without taking
 * it: the list's first render shows it while takeFirstOrdersPage hands it to the list's writer.
 */
export function answeredFirstOrdersPage(scope: ListScope, now = Date.now()): LabOrderList | null {
  return early?.answered && fits(early, scope, now) ? early.answered : null;
}

/** The page startFirstOrdersPage asked for, once, if it is of this scope and still fresh; otherwise null. */
export function takeFirstOrdersPage(scope: ListScope, now = Date.now()): Promise<LabOrderList> | null {
  const taken = early;
  early = null;
  return taken && fits(taken, scope, now) ? taken.page : null;
}
