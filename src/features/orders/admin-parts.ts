/**
 * The admin's parts of the orders list, each fetched once: the filter bar and urgent section
 * (admin-top.tsx) and the card lines. Photographers never download them (DESIGN.md §6a budget).
 * When the device knows an admin is signed in they are asked for with the list's own code
 * (first-page.ts), so the list's first render finds them in: before, each was asked for only when
 * that render reached it, and the admin's lines came about 80 ms after the cards, shifting them.
 */
let top: Promise<typeof import('./admin-top.tsx')> | null = null;
let cardLines: Promise<typeof import('./admin-card-lines.tsx')> | null = null;

export const loadAdminTop = () => (top ??= import('./admin-top.tsx'));
export const loadAdminCardLines = () => (cardLines ??= import('./admin-card-lines.tsx'));

/** Starts both downloads (a failure is reported where the part is shown). */
export function preloadAdminParts(): void {
  loadAdminTop().catch(() => undefined);
  loadAdminCardLines().catch(() => undefined);
}
