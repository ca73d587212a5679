/**
 * The deep screens' orders (issue 32, "Deep screens on a tablet"): one photographer with a builder
 * order of 20 photos and one of 200, a cart of 20 line items, an order at checkout details, one
 * ready for checkout final (address and card chosen) and a placed order for the order detail.
 * Photos are written into the database before the server starts (seed-builder-order.ts); the line
 * items, the address, the card and the payment then go through the lab's own API, as the app
 * sends them, so the server prices and checks them.
 */
import { randomUUID } from 'node:crypto';
import type { LineItemPayload } from '../../src/domain/line-item-payload.ts';
import { ROUTES } from '../../src/app/routes.ts';
import { API, API_PREFIX, routePath } from '../../src/domain/paths.ts';
import type { SessionAnswer } from '../../src/contract/session.ts';
import { signIn } from './http.ts';
import { seedPhotographerOrders, type SeededOrder } from './seed-builder-order.ts';
import { BENCH_PASSWORD } from './seed-orders.ts';

const EMAIL = 'deep.screens@example.com';
// The sizes issue 32 names: a typical order (20 photos, 20 line items) and a large one.
const TYPICAL = 20;
const LARGE = 200;
// Stripe's test card, which the sandbox provider takes as Stripe does.
const GOOD_CARD = '4242424242424242';

export interface DeepScreen {
  path: string;
  label: string;
}

export interface DeepSeed {
  session: SessionAnswer;
  screens: DeepScreen[];
}

const ORDERS = [
  { name: 'Builder 20 photos', photos: TYPICAL },
  { name: 'Builder 200 photos', photos: LARGE },
  { name: 'Cart 20 line items', photos: TYPICAL },
  { name: 'Checkout details 20 line items', photos: TYPICAL },
  { name: 'Checkout final 20 line items', photos: TYPICAL },
  { name: 'Placed 20 line items', photos: TYPICAL },
];

/** Before the server starts: the photographer and the orders' photos. */
export const seedDeepOrders = (dataDir: string): Promise<SeededOrder[]> => seedPhotographerOrders(dataDir, EMAIL, ORDERS);

async function call<T>(origin: string, token: string | null, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${origin}${API_PREFIX}${path}`, {
    method,
    headers: {
      ...(token ? { token } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(method === 'GET' ? {} : { 'idempotency-key': randomUUID() }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`seeding the deep screens: ${method} ${path} answered ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** One 8x10 of each photo (the whole frame, no finishing), priced by the lab. */
async function fillCart(origin: string, token: string, order: SeededOrder, printSize: string): Promise<void> {
  const photos = await call<{ data: { guid: string; photo_file_name: string }[] }>(
    origin,
    token,
    'GET',
    `${routePath(API.labOrderPhotographs, { guid: order.guid })}?per_page=${order.photos}`,
  );
  if (photos.data.length !== order.photos) throw new Error(`seeding the deep screens: ${order.name} lists ${photos.data.length} photos, not ${order.photos}`);
  const lineItems: LineItemPayload[] = photos.data.map((p) => ({
    guid: randomUUID(),
    imageName: p.photo_file_name,
    quantity: 1,
    print_size: printSize,
    finishing_service: null,
    finishing_service_detail: null,
    finishing_service_details: [],
    print_border: 'none',
    notes: '',
    source_photograph_guid: p.guid,
    photograph: { source_photograph_guid: p.guid, crop_x: 0, crop_y: 0, crop_h: 100, crop_w: 100, photo_meta: {} },
  }));
  await call(origin, token, 'POST', routePath(API.orderLineItems, { guid: order.guid }), { line_items: lineItems });
}

/** A shipping address and a card on the order: what checkout final needs to show itself. */
async function readyToPay(origin: string, token: string, order: SeededOrder): Promise<void> {
  await call(origin, token, 'POST', API.addresses, {
    recipient_name: 'Imogen Cunningham',
    street_address: '1 Lake Shore Dr',
    city: 'Chicago',
    state: 'IL',
    zip: '60611',
    lab_order_id: order.guid,
    update_address_on_order: true,
  });
  const minted = await call<{ id: string }>(origin, null, 'POST', API.sandboxTokens, { number: GOOD_CARD, exp_month: 12, exp_year: 2034, cvc: '123' });
  await call(origin, token, 'POST', API.createCard, { token_id: minted.id, lab_order_id: order.guid });
}

/** After the server starts: line items, address, card and payment through the API. */
export async function prepareDeepScreens(origin: string, orders: SeededOrder[]): Promise<DeepSeed> {
  const [builder, large, cart, details, final, placed] = orders;
  if (!builder || !large || !cart || !details || !final || !placed) throw new Error('seeding the deep screens: an order is missing');
  const session = await signIn(origin, EMAIL, BENCH_PASSWORD);
  const papers = await call<{ data: { print_size_pricings: { guid: string; name: string }[] }[] }>(origin, null, 'GET', API.papersWithDetails);
  const sizes = papers.data.flatMap((p) => p.print_size_pricings);
  const printSize = (sizes.find((s) => s.name === '8x10') ?? sizes[0])?.guid;
  if (!printSize) throw new Error('seeding the deep screens: the catalogue has no print size');
  for (const order of [cart, details, final, placed]) await fillCart(origin, session.token, order, printSize);
  for (const order of [final, placed]) await readyToPay(origin, session.token, order);
  await call(origin, session.token, 'POST', routePath(API.checkout, { guid: placed.guid }), { save_card: false });
  const at = (route: string, order: SeededOrder) => routePath(route, { id: order.guid });
  return {
    session,
    screens: [
      { path: at(ROUTES.orderBuilder, builder), label: `builder, ${builder.photos} photos` },
      { path: at(ROUTES.orderBuilder, large), label: `builder, ${large.photos} photos` },
      { path: at(ROUTES.cartReview, cart), label: `cart review, ${cart.photos} line items` },
      { path: at(ROUTES.checkoutDetails, details), label: `checkout details, ${details.photos} line items` },
      { path: at(ROUTES.checkoutFinal, final), label: `checkout final, ${final.photos} line items` },
      { path: at(ROUTES.orderDetail, placed), label: `order detail, placed, ${placed.photos} line items` },
    ],
  };
}
