import { expect, test, type Route } from '@playwright/test';
import { signIn } from './helpers.ts';
import { playSignIn } from './orders-fixtures.ts';

/**
 * The orders list pages through a lab's orders as the user scrolls. A fresh server has no
 * orders (and no call creates them yet), so the lab's answers are played here, following the
 * server's contract (tests/api/lab-orders.test.ts proves the server keeps it).
 */
const ORDERS = Array.from({ length: 120 }, (_, i) => {
  const at = new Date(Date.UTC(2026, 10, 20, 12) - i * 60_000).toISOString();
  return {
    id: String(1000 - i),
    type: 'lab_order',
    attributes: {
      id: 1000 - i,
      guid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      order_name: `Session ${String(i).padStart(3, '0')}`,
      status: 'open',
      created_at: at,
      updated_at: at,
      paid_at: null,
      photographer_id: 'p-1',
      photographer_name: 'Ansel Adams',
      photographer_business: 'Studio',
      photographer_email: 'admin@example.com',
    },
  };
});
const PER_PAGE = 50;

/** The lab's answer to one list request; records what was asked. */
function answer(asked: URL[]) {
  return async (route: Route) => {
    const url = new URL(route.request().url());
    asked.push(url);
    const search = url.searchParams.get('search')?.toLowerCase() ?? '';
    const matching = ORDERS.filter((o) => o.attributes.order_name.toLowerCase().includes(search));
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const data = matching.slice(start, start + PER_PAGE);
    const next = start + PER_PAGE < matching.length ? String(start + PER_PAGE) : null;
    await route.fulfill({
      json: {
        data,
        meta: {
          current_user_is_admin: false,
          current_user_is_api_vendor: false,
          view_as_photographer_id: null,
          view_as_photographer: null,
          total: matching.length,
          per_page: PER_PAGE,
          next_cursor: next,
        },
      },
    });
  };
}

test.describe('the orders list, a page at a time', () => {
  // The page's own calls are played here; a service worker would answer some of them itself.
  test.use({ serviceWorkers: 'block' });

  test('loads the next page as the end of the list scrolls into view, until every order is shown', async ({ page }) => {
    const asked: URL[] = [];
    await page.route(/\/api\/v2\/lab_orders(\?.*)?$/, answer(asked));
    await playSignIn(page, false);
    await page.goto('/login');
    await signIn(page);

    const orders = page.getByRole('link', { name: /^Session \d{3}$/ });
    await expect(orders).toHaveCount(50);
    await expect(page.getByText('50 of 120 orders')).toBeVisible();
    // The first page is asked without parameters (the server's default page size).
    expect(asked[0]?.search).toBe('');

    await page.getByRole('button', { name: 'LOAD MORE' }).scrollIntoViewIfNeeded();
    await expect(orders).toHaveCount(100);
    await page.getByRole('button', { name: 'LOAD MORE' }).scrollIntoViewIfNeeded();
    await expect(orders).toHaveCount(120);
    await expect(page.getByText('120 of 120 orders')).toBeVisible();
    await expect(page.getByRole('button', { name: 'LOAD MORE' })).toHaveCount(0);
    expect(asked.map((u) => u.searchParams.get('cursor'))).toEqual([null, '50', '100']);
    // Newest first, each order once.
    await expect(orders.first()).toHaveText('Session 000');
    await expect(orders.last()).toHaveText('Session 119');
  });

  test('search finds orders on pages not loaded yet', async ({ page }) => {
    const asked: URL[] = [];
    await page.route(/\/api\/v2\/lab_orders(\?.*)?$/, answer(asked));
    await playSignIn(page, false);
    await page.goto('/login');
    await signIn(page);
    const orders = page.getByRole('link', { name: /^Session \d{3}$/ });
    await expect(orders).toHaveCount(50);

    await page.getByRole('searchbox', { name: 'Search by Order Name or Status' }).fill('session 11');
    await expect(orders).toHaveCount(10);
    await expect(orders.first()).toHaveText('Session 110');
    await expect(page.getByText('10 of 10 orders')).toBeVisible();
    expect(asked.at(-1)?.searchParams.get('search')).toBe('session 11');

    await page.getByRole('searchbox', { name: 'Search by Order Name or Status' }).fill('');
    await expect(orders).toHaveCount(50);
  });
});
