/**
 * Played lab answers for the orders list specs (docs/api.md §6): orders with every list
 * field, and GET/DELETE /lab_orders answered from them with the contract's filters.
 */
import type { Page, Route } from '@playwright/test';

export type Attrs = Record<string, unknown> & { guid: string; order_name: string; status: string; photographer_id: string };

const at = (i: number) => new Date(Date.UTC(2026, 10, 20, 15) - i * 20 * 60_000).toISOString();
export function order(i: number, o: Partial<Attrs> = {}): Attrs {
  return {
    id: 10_000 - i,
    guid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    order_name: `Session ${String(i).padStart(5, '0')}`,
    status: 'paid',
    created_at: at(i),
    updated_at: at(i),
    paid_at: at(i),
    photographer_id: 'p-1',
    photographer_name: 'Ansel Adams',
    photographer_business: 'Zone Studio',
    photographer_email: 'ansel@example.com',
    urgent: false,
    has_notes: false,
    has_admin_notes: false,
    has_frame: false,
    has_mount: false,
    has_mat: false,
    has_canvas: false,
    api_order: false,
    test_print: false,
    boutique_shipping: false,
    local_pickup: false,
    shipping_method: 'ground',
    tracking_url: null,
    total: 27.5,
    cover_photo_url: null,
    download_all_link: null,
    color_correction: 'lab',
    line_item_count: 2,
    ...o,
  };
}

/**
 * The demo admin signs in on the real lab, but a played lab may be a photographer's: the sign-in
 * answer then says so too (is_admin), as the real lab's would for a photographer, so the app asks
 * for the list a photographer's way (no admin filters) from the start.
 */
export async function playSignIn(page: Page, admin: boolean) {
  await page.route(/\/api\/v2\/login$/, async (route: Route) => {
    const response = await route.fetch();
    const json = (await response.json()) as Record<string, unknown>;
    await route.fulfill({ response, json: response.ok() ? { ...json, is_admin: admin } : json });
  });
}

/** Plays GET/DELETE /lab_orders for a set of orders (and the sign-in's admin flag); records every request. */
export async function playLab(page: Page, orders: Attrs[], opts: { admin: boolean; perPage?: number }) {
  const asked: URL[] = [];
  const deleted: string[] = [];
  await playSignIn(page, opts.admin);
  await page.route(/\/api\/v2\/lab_orders(\/[^/?]+)?(\?.*)?$/, async (route: Route) => {
    const url = new URL(route.request().url());
    asked.push(url);
    if (route.request().method() === 'DELETE') {
      deleted.push(url.pathname.split('/').at(-1) ?? '');
      await route.fulfill({ json: { success: true } });
      return;
    }
    const live = orders.filter((o) => !deleted.includes(o.guid));
    const search = url.searchParams.get('search')?.toLowerCase() ?? '';
    const urgent = url.searchParams.get('urgent') === 'true';
    const filters = (url.searchParams.get('filters') ?? '').split(',').filter(Boolean);
    const matching = live.filter(
      (o) =>
        o.order_name.toLowerCase().includes(search) &&
        (!urgent || o.urgent) &&
        (!filters.includes('hide_open') || o.status !== 'open') &&
        (!filters.includes('frame') || o.has_frame) &&
        (!filters.includes('hide_mine') || o.photographer_id !== 'admin') &&
        (!filters.includes('boutique') || o.boutique_shipping) &&
        (!url.searchParams.get('photographer_id') || o.photographer_id === url.searchParams.get('photographer_id')),
    );
    // A search answers a page of the lab's default size, as the lab does.
    const per = search ? 50 : (opts.perPage ?? 50);
    const start = Number(url.searchParams.get('cursor') ?? 0);
    await route.fulfill({
      json: {
        data: matching.slice(start, start + per).map((a) => ({ id: String(a.id), type: 'lab_order', attributes: a })),
        meta: {
          current_user_is_admin: opts.admin,
          current_user_is_api_vendor: false,
          view_as_photographer_id: null,
          view_as_photographer: null,
          total: matching.length,
          per_page: per,
          next_cursor: start + per < matching.length ? String(start + per) : null,
          urgent_count: live.filter((o) => o.urgent).length,
        },
      },
    });
  });
  return { asked, deleted };
}
