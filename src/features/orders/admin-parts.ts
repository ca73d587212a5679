import { moduleLoader } from '../../ui/use-module.ts';

/**
 * The admin's parts of the orders list, each fetched once: the filter bar and urgent section
 * (admin-top.tsx) and the card lines. Photographers never download them (docs/performance-notes.md §8 budget).
 * When the device knows an admin is signed in they are asked for with the list's own code
 * (first-page.ts), so the list's first render finds them in: before, each was asked for only when
 * that render reached it, and the admin's lines came after the cards, shifting them
 * (docs/performance-notes.md §3).
 */
export const adminTop = moduleLoader(() => import('./admin-top.tsx'));
export const adminCardLines = moduleLoader(() => import('./admin-card-lines.tsx'));

/** Starts both downloads (a failure is reported where the part is shown). */
export function preloadAdminParts(): void {
  adminTop.load().catch(() => undefined);
  adminCardLines.load().catch(() => undefined);
}
