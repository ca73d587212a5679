import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { formatFrameProfile, type FinishingCategory } from '../../src/domain/catalogue.ts';
import type { ServerLineItem } from '../../src/contract/line-items.ts';
import { toDollars } from '../../src/domain/money.ts';
import type { Db } from '../db/client.ts';
import { perDatabase } from '../db/prepared.ts';
import { finishingDetails, finishingServices, lineItems, papers, photographs, printSizes } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { validationError } from '../http/errors.ts';
import type { Actor, UserRow } from './auth-service.ts';
import { checkoutAttributes } from './checkout-answer.ts';
import { listMeta, orderSummary } from './lab-orders-service.ts';
import type { OrderRow } from './order-access.ts';
import { signPhotoKey } from './photo-service.ts';
import { delaysOf, shipDatesOf } from './order-ship-dates.ts';

/** Line items and the full order as the wire carries them (docs/api.md §9; docs/orders.md §3). */

export type LineItemRow = typeof lineItems.$inferSelect;

const rowsOf = (db: Db) =>
  db
    .select({ item: lineItems, photo: photographs, size: printSizes, paper: papers, service: finishingServices })
    .from(lineItems)
    .innerJoin(photographs, eq(photographs.id, lineItems.photographId))
    .innerJoin(printSizes, eq(printSizes.guid, lineItems.printSizeGuid))
    .innerJoin(papers, eq(papers.guid, printSizes.paperGuid))
    .leftJoin(finishingServices, eq(finishingServices.guid, lineItems.finishingServiceGuid))
    .$dynamic();

type JoinedRow = Awaited<ReturnType<ReturnType<typeof rowsOf>['execute']>>[number];

// Every order detail, cart and cart change reads these: built once per database (server/db/prepared.ts).
const cartReads = perDatabase((db) => ({
  ofOrder: rowsOf(db).where(eq(lineItems.labOrderId, sql.placeholder('order'))).orderBy(asc(lineItems.id)).prepare('line_items_of_order'),
  // The guids as one array parameter (an IN list would be a statement per count of guids).
  details: db
    .select()
    .from(finishingDetails)
    .where(sql`${finishingDetails.guid} = any(${sql.placeholder('guids')}::uuid[])`)
    .prepare('finishing_details_by_guid'),
}));

/** The line items of an order in the order they were added, as the server answers them. */
export async function lineItemsOfOrder(deps: Pick<ServerDeps, 'db' | 'storage' | 'now'>, orderId: number): Promise<ServerLineItem[]> {
  const rows = await cartReads(deps.db).ofOrder.execute({ order: orderId });
  return answerRows(deps, rows);
}

/** A page of an order's line items: how many, and `line_items_next_cursor` of the page before. */
export interface LineItemPage {
  perPage: number;
  cursor?: string | undefined;
}

const encodeLineItemCursor = (id: number) => Buffer.from(`li:${id}`).toString('base64url');
function decodeLineItemCursor(cursor: string): number {
  const match = /^li:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw validationError('This position in the cart is not valid. Please read the order again from its start.');
  return Number(match[1]);
}

/**
 * One page of an order's line items in the order they were added (keyset on the id): a
 * 1,000-photo order is read in a few answers instead of one of about a megabyte, each signing its
 * own page's photo links.
 */
export async function lineItemPageOfOrder(deps: Pick<ServerDeps, 'db' | 'storage' | 'now'>, orderId: number, page: LineItemPage): Promise<{ items: ServerLineItem[]; next: string | null }> {
  const after = page.cursor ? gt(lineItems.id, decodeLineItemCursor(page.cursor)) : undefined;
  const rows = await rowsOf(deps.db)
    .where(and(eq(lineItems.labOrderId, orderId), after))
    .orderBy(asc(lineItems.id))
    .limit(page.perPage + 1);
  const shown = rows.slice(0, page.perPage);
  const last = shown.at(-1);
  return { items: await answerRows(deps, shown), next: rows.length > page.perPage && last ? encodeLineItemCursor(last.item.id) : null };
}

/** Some line items by id, in the order of `ids` (one entry per id, repeats kept). */
export async function lineItemsById(deps: Pick<ServerDeps, 'db' | 'storage' | 'now'>, ids: number[]): Promise<ServerLineItem[]> {
  if (!ids.length) return [];
  const rows = await rowsOf(deps.db).where(inArray(lineItems.id, [...new Set(ids)]));
  const answers = await answerRows(deps, rows);
  const byId = new Map(rows.map((r, i) => [r.item.id, answers[i]]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

async function answerRows(deps: Pick<ServerDeps, 'db' | 'storage' | 'now'>, rows: JoinedRow[]): Promise<ServerLineItem[]> {
  const detailGuids = [...new Set(rows.flatMap((r) => r.item.finishingDetailGuids))];
  // As an array literal: uuids come from the database, so they need no quoting, and both drivers
  // pass the text as it is.
  const details = detailGuids.length ? await cartReads(deps.db).details.execute({ guids: `{${detailGuids.join(',')}}` }) : [];
  const detailByGuid = new Map(details.map((d) => [d.guid, d]));
  return Promise.all(rows.map((row) => answerRow(deps, row, detailByGuid)));
}

async function answerRow(deps: Pick<ServerDeps, 'storage' | 'now'>, row: JoinedRow, detailByGuid: Map<string, { name: string }>): Promise<ServerLineItem> {
  const { item, photo, size, paper, service } = row;
  const sign = (key: string) => signPhotoKey(deps, key);
  const original = await sign(photo.key);
  const shown = photo.previewKey && photo.thumbnailKey ? await sign(photo.previewKey) : original;
  const [one, two, three] = item.finishingDetailGuids;
  const name = (guid: string | undefined) => (guid ? (detailByGuid.get(guid)?.name ?? null) : null);
  return {
    guid: item.guid,
    photograph_guid: photo.guid,
    photograph_url: shown,
    photograph_cropped_url: item.croppedKey ? await sign(item.croppedKey) : null,
    photograph_full_url: original,
    photo_file_name: photo.fileName,
    print_size_attributes: { paper: paper.name, paper_guid: paper.guid, print_size: size.name, print_size_guid: size.guid, price: toDollars(item.printCents) },
    print_border: item.printBorder,
    external_id: item.externalId,
    notes: item.notes,
    internal_notes: item.internalNotes,
    photograph_attributes: { crop_x: item.cropX, crop_y: item.cropY, crop_h: item.cropH, crop_w: item.cropW, aspect: item.aspect },
    quantity: item.quantity,
    subtotal: toDollars((item.printCents + item.finishingCents) * item.quantity),
    finishing_service: service
      ? {
          finishing_category: service.category as FinishingCategory,
          finishing_service: service.name,
          finishing_service_guid: service.guid,
          finishing_service_detail: name(one),
          finishing_service_detail_guid: one ?? null,
          finishing_service_detail_two_guid: two ?? null,
          finishing_service_detail_three_guid: three ?? null,
          formatted_frame_profile: formatFrameProfile(service.frameProfile),
          formatted_detail_one: name(one),
          formatted_detail_two: name(two),
          formatted_detail_three: name(three),
          price: toDollars(item.finishingCents),
        }
      : null,
  };
}

/** The order's figures in dollars, as the checkout box shows them. */
export const orderMoney = (order: OrderRow) => ({
  subtotal: toDollars(order.subtotalCents),
  discount: toDollars(order.discountCents),
  credit_applied: toDollars(order.creditCents),
  shipping_total: toDollars(order.shippingCents),
  total: toDollars(order.totalCents),
});

/** retrieve_full_order, and the answer of every call that changes the cart as a whole. */
export async function fullOrderAnswer(deps: Pick<ServerDeps, 'db' | 'storage' | 'now'>, actor: Actor, order: OrderRow, photographer: UserRow, page?: LineItemPage) {
  const summary = orderSummary(order, photographer);
  const paged = page ? await lineItemPageOfOrder(deps, order.id, page) : null;
  return {
    data: {
      ...summary,
      attributes: {
        ...summary.attributes,
        ...orderMoney(order),
        notes: order.notes,
        ...(await checkoutAttributes(deps.db, order)),
        urgent: order.urgent,
        color_correction: order.colorCorrection as 'lab' | 'as_is',
        tracking_url: order.trackingUrl,
        shipped_at: order.shippedAt?.toISOString() ?? null,
        ship_dates: await shipDatesOf(deps.db, order, deps.now?.() ?? new Date()),
        delays: await delaysOf(deps.db, order.id),
        ...(actor.user.isAdmin ? { internal_notes: order.internalNotes } : {}),
      },
      line_items: paged ? paged.items : await lineItemsOfOrder(deps, order.id),
    },
    meta: { ...listMeta(actor), ...(paged ? { line_items_next_cursor: paged.next } : {}) },
  };
}
