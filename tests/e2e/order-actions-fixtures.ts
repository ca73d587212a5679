/**
 * The photographer's order actions' fixtures (issue 13: reorder, cancel, colour correction): a
 * real paid order (photos uploaded, line items priced, paid through the sandbox), and the lab's
 * view of an order read with an admin's token.
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { savedCard, shopperWithCart, type Shopper } from './checkout-fixtures.ts';
import { DEMO_ADMIN } from './helpers.ts';

export interface PaidShopper extends Shopper {
  total: number;
  orderName: string;
}

/** A new photographer signed in on `page`, whose order is paid (a saved sandbox card, local pickup). */
export async function paidShopper(page: Page): Promise<PaidShopper> {
  const shopper = await shopperWithCart(page);
  const { cart } = shopper;
  const headers = { token: cart.token };
  const card = await savedCard(page.request, cart.token);
  for (const [type, value] of [['used_saved_card', card.id], ['local_pickup', true]] as const) {
    expect((await page.request.patch(`/api/v2/lab_orders/${cart.orderGuid}`, { headers, data: { type, value } })).ok()).toBe(true);
  }
  const paid = await page.request.post(`/api/v2/lab_orders/${cart.orderGuid}/checkout`, { headers, data: { save_card: false } });
  expect(paid.status(), await paid.text()).toBe(200);
  const attributes = ((await paid.json()) as { data: { attributes: { total: number; order_name: string } } }).data.attributes;
  return { ...shopper, total: attributes.total, orderName: attributes.order_name };
}

/** The demo admin's token, signed in through the API (the page keeps its own session). */
export async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/v2/login', { data: DEMO_ADMIN });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { token: string }).token;
}

export interface LabOrder {
  status: string;
  order_name: string;
  color_correction: string;
  refund_amount: number;
  refunds?: { amount: number; provider_refund_id: string | null }[];
  line_items: { quantity: number; photo_file_name: string; print_size_attributes: { print_size_guid: string }; photograph_attributes: Record<string, number | null> }[];
}

/** GET /lab_orders/:guid with `token`. */
export async function labOrder(request: APIRequestContext, token: string, guid: string): Promise<LabOrder> {
  const res = await request.get(`/api/v2/lab_orders/${guid}`, { headers: { token } });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { data: { attributes: LabOrder } }).data.attributes;
}

/** The order's photos as the lab lists them: file name and checksum. */
export async function photosOf(request: APIRequestContext, token: string, guid: string): Promise<{ photo_file_name: string; guid: string }[]> {
  const res = await request.get(`/api/v2/lab_orders/${guid}/lab_order_photographs?per_page=100`, { headers: { token } });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { data: { photo_file_name: string; guid: string }[] }).data;
}
