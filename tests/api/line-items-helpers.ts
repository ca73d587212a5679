import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { expect } from 'vitest';
import { ensureCatalogue } from '../../server/catalogue/load-catalogue.ts';
import { eq } from 'drizzle-orm';
import { labOrders, photographs } from '../../server/db/schema.ts';
import type { FinishingService, Paper } from '../../src/contract/catalogue.ts';
import { lineItemPayload, type LineItemPayload } from '../../src/domain/line-item-payload.ts';
import type { ServerLineItem as ServerItem } from '../../src/contract/line-items.ts';
import { createTestApp, createUser, signIn, type TestApp } from './helper.ts';
import { callAs, newOrder, photographer } from './photo-helpers.ts';
import type { InputOf } from '../../src/contract/endpoint.ts';
import type { Contract } from '../../src/contract/index.ts';
import { callApi } from './contract-call.ts';

/** The cart's API tests: products of the default catalogue, orders with stored photos, payloads as the builder makes them. */

export interface Products {
  paper: Paper;
  /** A print size of `paper` that offers a hardwood frame. */
  size: Paper['print_size_pricings'][number];
  /** A hardwood frame of `size` (frame mat, glass and stain). */
  frame: FinishingService;
  /** The frame's non-default details, one per kind, in the category's order. */
  frameDetails: string[];
  /** A print size of Brushed Canvas (needs finishing). */
  brushedCanvas: string;
}

/** A fresh lab with the default catalogue and a signed-in admin: the setup of the order tools' tests. */
export async function labWithAdmin(opts: Parameters<typeof createTestApp>[1] = {}): Promise<{ t: TestApp; p: Products; admin: string }> {
  const t = await createTestApp({}, opts);
  const p = await products(t);
  const a = await createUser(t.db, { isAdmin: true });
  return { t, p, admin: await signIn(t.app, a.user.email, a.password) };
}

export async function products(t: TestApp): Promise<Products> {
  await ensureCatalogue(t.db);
  const papers = (await callApi(t.app, 'GET /papers_with_details', {})).json().data;
  for (const paper of papers.filter((p) => p.name !== 'Brushed Canvas')) {
    for (const size of paper.print_size_pricings) {
      const groups = (await callApi(t.app, 'GET /products/:print_size_guid/finishing_services', { params: { print_size_guid: size.guid } })).json().data;
      const frame = groups.find((g) => g.finishing_category === 'hardwood_frame')?.services[0];
      const brushed = papers.find((p) => p.name === 'Brushed Canvas')?.print_size_pricings[0];
      if (!frame || !brushed) continue;
      // The priciest of each kind, so the details' prices show in the total.
      const pick = (kind: 'frame_mat' | 'glass' | 'stain') => [...(frame.detail_pricings[kind] ?? [])].sort((a, b) => b.price - a.price)[0]?.guid ?? '';
      return { paper, size, frame, frameDetails: [pick('frame_mat'), pick('glass'), pick('stain')], brushedCanvas: brushed.guid };
    }
  }
  throw new Error('the default catalogue has no hardwood frame');
}

/** A real JPEG of the given size, seen as stored (no EXIF orientation). */
export const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .jpeg()
    .toBuffer();

/** Stores photos in an order directly (uploading has its own tests); answers their guids. */
export async function addPhotos(t: TestApp, orderGuid: string, count: number, size = { width: 300, height: 200 }): Promise<string[]> {
  const [order] = await t.db.select().from(labOrders).where(eq(labOrders.guid, orderGuid));
  if (!order) throw new Error('no such order');
  const bytes = await jpeg(size.width, size.height);
  const guids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const key = `photos/${orderGuid}/${randomUUID()}.jpg`;
    await t.storage.put(key, bytes, 'image/jpeg');
    const [row] = await t.db
      .insert(photographs)
      .values({ labOrderId: order.id, fileName: `IMG_${1000 + i}.jpg`, key, size: bytes.length, checksum: randomBytes(32).toString('hex'), contentType: 'image/jpeg', ...size })
      .returning();
    if (!row) throw new Error('photo not stored');
    guids.push(row.guid);
  }
  return guids;
}

/** A photographer with an open order holding `photos` photos. */
export async function orderWithPhotos(t: TestApp, photos = 2) {
  const { user, token } = await photographer(t);
  const order = await newOrder(t, token);
  return { user, token, order, photos: await addPhotos(t, order, photos) };
}

/** A line item as the builder sends it (the domain's own payload builder); `extra` replaces any field. */
export function payload(photo: string, printSize: string, extra: Partial<LineItemPayload> & Record<string, unknown> = {}): LineItemPayload & Record<string, unknown> {
  const made = lineItemPayload({
    guid: randomUUID(),
    photo: { guid: photo, photo_file_name: 'IMG_1000.jpg' },
    selections: { printSizeGuid: printSize, qty: 1, notes: {} },
    finishing: null,
  });
  return { ...made, ...extra };
}

/** One line item as the contract takes it. */
export type LineItemBody = InputOf<Contract['POST /lab_orders/:guid/line_items']>['body']['line_items'][number];

/** Adds line items through the contract; `key` replays a chosen Idempotency-Key. */
export const addItems = (t: TestApp, token: string, order: string, items: LineItemBody[], key?: string) =>
  callAs(t.app, 'POST /lab_orders/:guid/line_items', { params: { guid: order }, body: { line_items: items } }, { token, headers: key ? { 'idempotency-key': key } : {} });

/** The order as GET /lab_orders/{id} answers it to `token` (an admin also gets its events, refunds and tools). */
export async function orderDetail(t: TestApp, token: string, order: string) {
  const res = await callApi(t.app, 'GET /lab_orders/:guid', { params: { guid: order } }, { token });
  expect(res.status).toBe(200);
  return res.json().data.attributes;
}

export async function fullOrder(t: TestApp, token: string, order: string) {
  const res = await callApi(t.app, 'GET /lab_orders/:guid/retrieve_full_order', { params: { guid: order }, query: {} }, { token });
  expect(res.status).toBe(200);
  // Loosely typed for the tests that read fields by name from a table of cases.
  const answer: { data: { attributes: Record<string, unknown> & { subtotal: number; total: number; shipping_total: number; status: string }; line_items: ServerItem[] }; meta: Record<string, unknown> } = res.json();
  return answer;
}

