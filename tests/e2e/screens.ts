/**
 * Every screen of the app and the checks each must pass at every width: no serious or critical
 * axe-core violation, no sideways scrolling, touch-sized controls on phones. A new screen adds
 * itself to a list here (tests/e2e/accessibility.spec.ts walks them), and its own spec may call
 * `expectAccessible(page)` on any state it reaches.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export interface Screen {
  /** The path to open; `:guid` is filled with a photographer's guid, `:order` with an open order's. */
  path: string;
  /** The screen's h1, which shows once its data has loaded. */
  heading: string | RegExp;
}

export const PUBLIC_SCREENS: Screen[] = [
  { path: '/login', heading: 'SIGN IN' },
  { path: '/signup/1-of-3', heading: 'CREATE YOUR ACCOUNT' },
  { path: '/forgot-password', heading: 'FORGOT PASSWORD' },
  { path: '/forgot-password-confirmation', heading: 'CHECK YOUR EMAIL' },
  { path: '/reset-password', heading: 'RESET PASSWORD' },
  { path: '/shopify-connect', heading: 'CONNECT YOUR SHOP' },
];

/** Opened by the demo admin, whose navigation bar has the most links. */
export const SIGNED_IN_SCREENS: Screen[] = [
  { path: '/signup/2-of-3', heading: 'Were you referred by another photographer?' },
  { path: '/signup/3-of-3', heading: 'Is your business located in Tennessee?' },
  { path: '/signup/confirmation', heading: 'Congratulations! You can now sign in and place orders' },
  { path: '/', heading: 'ORDERS' },
  { path: '/lab-orders', heading: 'ORDERS' },
  { path: '/account', heading: 'ACCOUNT' },
  { path: '/credit', heading: 'CREDIT' },
  { path: '/photographers/:guid', heading: 'CREDIT' },
  { path: '/calculate', heading: 'PRICE CALCULATOR' },
  { path: '/price-lists', heading: 'PRICE LIST' },
  { path: '/lab-order-confirmation', heading: /^Thank you for your order!/ },
  // An open order with no line items: the preview says so, the review goes on to the builder
  // ('You have no line items!'). cart-review.spec.ts checks both with a full cart.
  { path: '/cart-preview/:order', heading: 'CART PREVIEW' },
  { path: '/lab-orders/:order/review', heading: /^(CART|ORDER BUILDER)$/ },
  // The same empty order: checkout details goes on to the builder, checkout final to checkout
  // details and on. checkout.spec.ts opens both with a full cart at every width.
  { path: '/lab-orders/:order/checkout-details', heading: /^(CHECKOUT|ORDER BUILDER)$/ },
  { path: '/lab-orders/:order/checkout-final/', heading: /^(REVIEW & CONFIRM|CHECKOUT|ORDER BUILDER)$/ },
  // The admin's photographers list and API invoices (issue 13).
  { path: '/photographers', heading: 'PHOTOGRAPHERS' },
  { path: '/api-invoices', heading: 'API INVOICES' },
  { path: '/discount-codes', heading: 'DISCOUNT CODES' },
  { path: '/lab-orders/upload', heading: 'NEW LAB ORDER' },
  { path: '/lab-orders/:order/upload-progress', heading: 'UPLOAD PHOTOS' },
  { path: '/lab-orders/:order/edit/order-builder', heading: 'ORDER BUILDER' },
  // The same order twice: the review shows it on both sides and says two are needed.
  { path: '/lab-orders/:order/merge-order/:order/review', heading: 'MERGE ORDERS' },
  // The order detail of the admin's open order (named by accessibility.spec.ts): the admin panel shows.
  { path: '/lab-orders/:order', heading: /^Accessibility / },
];

/** Desktop, a common phone, and the narrowest phone still in use. */
export const WIDTHS = [1280, 375, 320] as const;

/**
 * The widths of WIDTHS where a sweep runs axe-core: one per layout. 375 and 320 px fall on the
 * same side of every breakpoint in the CSS (the narrowest is 419 px), so axe at 375 px checks the
 * same page as at 320 px again, seconds a screen; 375 px keeps the layout checks (overflow,
 * touch targets), which do depend on the width.
 */
export const AXE_WIDTHS: ReadonlySet<number> = new Set([1280, 320]);

/** Below this width the screen is a phone's or a small tablet's (app.css uses the same). */
export const TOUCH_WIDTH = 760;

// WCAG 2.5.5 (AAA) and the platforms' guidelines: a finger needs about 44 CSS px.
const MIN_TOUCH_PX = 44;

// The spec's loading words: a screen showing one has not finished.
const LOADING = /^(loading|loading\.\.\.|updating user\.\.\.)$/;

/** Opens a screen and waits until its data has loaded. */
export async function openScreen(page: Page, screen: Screen, params: Record<string, string> = {}): Promise<string> {
  const path = screen.path.replace(/:([a-z]+)/g, (_, name: string) => params[name] ?? name);
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: screen.heading }), path).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: LOADING }), path).toHaveCount(0);
  return path;
}

/** Interactive elements smaller than a fingertip (inline links inside sentences are exempt, as in WCAG 2.5.8). */
function smallTargets(page: Page) {
  return page.evaluate((min) => {
    const controls = document.querySelectorAll<HTMLElement>('a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="combobox"]');
    const small: string[] = [];
    for (const el of controls) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (getComputedStyle(el).visibility === 'hidden') continue;
      // A checkbox's target is its whole label; a link in running text is part of the sentence.
      const target = (el.matches('input[type="checkbox"], input[type="radio"]') && el.closest('label')) || el;
      if (el.matches('a') && el.closest('p, li, dd') && !el.matches('.button')) continue;
      const b = target.getBoundingClientRect();
      // Half a pixel of rounding is no finger's problem.
      if (b.width < min - 0.5 || b.height < min - 0.5) {
        small.push(`${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(b.width)}x${Math.round(b.height)}`);
      }
    }
    return small;
  }, MIN_TOUCH_PX);
}

/**
 * The checks of every screen, at the page's current width: no serious or critical axe-core
 * violation, no sideways scrolling, and on touch-sized screens no control smaller than a
 * fingertip. `axe: false` leaves out axe-core, for a width whose layout was checked already
 * (AXE_WIDTHS). With SCREENSHOT_DIR set, also saves a full-page screenshot to look at.
 */
export async function expectAccessible(page: Page, label = new URL(page.url()).pathname, { axe = true } = {}): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  const where = `${label} at ${width}px`;

  if (axe) {
    // Legacy mode runs axe in the page itself: the default opens a blank page per run to join
    // the results of cross-origin frames, and the app has no frame. Only violations are
    // checked, so passes and the like come back as one node each instead of every element.
    // Together they cut a good part of the sweep's test time (docs/performance-notes.md §9).
    const results = await new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] }).analyze();
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary?.split('\n')[1] ?? ''}`).join('\n    ')}`);
    expect.soft(serious, `${where}: accessibility violations`).toEqual([]);
  }

  const overflow = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }));
  expect.soft(overflow.scroll, `${where}: page wider than the screen`).toBeLessThanOrEqual(overflow.viewport);

  if (width < TOUCH_WIDTH) expect.soft(await smallTargets(page), `${where}: touch targets under ${MIN_TOUCH_PX}px`).toEqual([]);

  const dir = process.env.SCREENSHOT_DIR;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    const name = `${width}${label.replace(/[^a-z0-9]+/gi, '_')}.png`;
    await page.screenshot({ path: join(dir, name), fullPage: true });
  }
}
