import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { cropProblem, normaliseCrop } from '../../src/domain/crop.ts';
import { sameProduct } from '../../src/domain/line-item-merge.ts';
import { NOTES_MAX } from '../../src/domain/notes.ts';
import { isValidQuantity, MAX_QUANTITY, readQuantityUpdate, steppedQuantity } from '../../src/domain/quantity.ts';
import type { Tx } from '../db/client.ts';
import { labOrders, lineItemMerges, lineItems, photographs, users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { badRequest, HttpError, notFound, unauthorized, validationError } from '../http/errors.ts';
import type { Actor, UserRow } from './auth-service.ts';
import { listMeta } from './lab-orders-service.ts';
import { fullOrderAnswer, lineItemsById, orderMoney, type LineItemPage, type LineItemRow } from './line-item-answer.ts';
import { queueCroppedImages, removeCroppedImage } from './line-item-crop.ts';
import { ProductPricer, type PricedProduct } from './line-item-product.ts';
import { visibleOrder, type OrderRow } from './order-access.ts';
import { orderFigures, saveFigures } from './order-figures.ts';
import { lockOpenOrder } from './order-lock.ts';

/**
 * The cart of an order (docs/orders.md §5, §7; docs/api.md §9: line items added in batches
 * with client-made guids, edited, re-counted and removed, each change priced by the server from
 * its own catalogue and the order's figures kept with it, in one transaction.
 */

export const CART_NOT_OPEN = 'This order is no longer open, so its cart cannot change.';
export const PHOTO_MISSING = 'This photo is no longer in the order. Please upload it again or choose another photo.';
export const QUANTITY_INVALID = `Quantity must be a whole number from 1 to ${MAX_QUANTITY}.`;
const LINE_ITEM_NOT_FOUND = 'This line item does not exist.';
const GUID_TAKEN = 'This line item id is already used by another order.';

const orderNotOpen = () => new HttpError(409, 'OrderNotOpen', CART_NOT_OPEN);
const photoMissing = (guid: string) => new HttpError(422, 'PhotoMissing', PHOTO_MISSING, { developerMessage: `photo ${guid} is not in this order`, moreInfo: [guid] });

/** A line item as the client sends it (line-item-payload.ts LineItemPayload), after the route's schema. */
export interface LineItemInput {
  /** Our client makes it (so a retry is the same line item); a partner may leave it to the lab. */
  guid?: string | undefined;
  quantity: unknown;
  print_size: string;
  finishing_service: string | null;
  finishing_service_detail?: string | null | undefined;
  finishing_service_details?: string[] | undefined;
  print_border: string;
  notes?: string | null | undefined;
  source_photograph_guid: string;
  photograph: { source_photograph_guid: string; crop_x: number; crop_y: number; crop_h: number; crop_w: number; photo_meta?: Record<string, unknown> | undefined };
}

/** A line item checked against the order and priced: ready to write. */
interface PreparedLine {
  guid: string;
  photoId: number;
  product: PricedProduct;
  quantity: number;
  notes: string | null;
  printBorder: string;
  crop: { cropX: number; cropY: number; cropW: number; cropH: number };
  aspect: number | null;
}

/** Checks every line item of a request before anything is written: nothing is saved half-way. */
async function prepareLines(db: Tx, order: OrderRow, inputs: LineItemInput[]): Promise<PreparedLine[]> {
  for (const input of inputs) if (!isValidQuantity(input.quantity)) throw badRequest(QUANTITY_INVALID);
  const photoGuids = [...new Set(inputs.map((i) => i.source_photograph_guid))];
  const photos = await db
    .select({ id: photographs.id, guid: photographs.guid })
    .from(photographs)
    .where(and(eq(photographs.labOrderId, order.id), inArray(photographs.guid, photoGuids)));
  const pricer = new ProductPricer(db);
  await pricer.load(inputs.map((i) => i.print_size));
  const lines: PreparedLine[] = [];
  for (const input of inputs) {
    if (input.photograph.source_photograph_guid !== input.source_photograph_guid) throw validationError('The photograph and source_photograph_guid name different photos.');
    const photo = photos.find((p) => p.guid === input.source_photograph_guid);
    if (!photo) throw photoMissing(input.source_photograph_guid);
    const { crop_x: x, crop_y: y, crop_w: width, crop_h: height } = input.photograph;
    const problem = cropProblem({ x, y, width, height });
    if (problem) throw validationError(problem);
    const crop = normaliseCrop({ x, y, width, height });
    const notes = input.notes?.trim() ? input.notes : null;
    if (notes && notes.length > NOTES_MAX) throw validationError(`Notes can be at most ${NOTES_MAX} characters.`);
    const aspect = input.photograph.photo_meta?.aspect;
    const detailGuids = input.finishing_service_details?.length ? input.finishing_service_details : input.finishing_service_detail ? [input.finishing_service_detail] : [];
    lines.push({
      guid: input.guid ?? randomUUID(),
      photoId: photo.id,
      product: await pricer.price({ printSizeGuid: input.print_size, finishingServiceGuid: input.finishing_service, detailGuids, printBorder: input.print_border }),
      quantity: input.quantity as number,
      notes,
      printBorder: input.print_border,
      crop: { cropX: crop.x, cropY: crop.y, cropW: crop.width, cropH: crop.height },
      aspect: typeof aspect === 'number' && Number.isFinite(aspect) && aspect > 0 ? aspect : null,
    });
  }
  return lines;
}

const lineValues = (line: PreparedLine) => ({
  photographId: line.photoId,
  printSizeGuid: line.product.printSizeGuid,
  finishingServiceGuid: line.product.finishingServiceGuid,
  finishingDetailGuids: line.product.detailGuids,
  printBorder: line.printBorder,
  notes: line.notes,
  ...line.crop,
  aspect: line.aspect,
  quantity: line.quantity,
  printCents: line.product.printCents,
  finishingCents: line.product.finishingCents,
});

/** Holds the order for the rest of the transaction (a checkout or another batch waits) and checks it is open. */
const lockCart = (tx: Tx, orderId: number) => lockOpenOrder(tx, orderId, orderNotOpen);

/**
 * The order's figures from its line items and checkout choices (order-figures.ts), stored with
 * the change that moved them. `locked` is the row lockCart read: its checkout choices (what the
 * figures read of the order) cannot have changed since, so it is not read again.
 */
const refreshTotals = async (tx: Tx, locked: OrderRow) => saveFigures(tx, locked.id, await orderFigures(tx, locked));

/** An order the caller may change the cart of: their own or, for an admin, any; open. */
async function cartOrder(deps: Pick<ServerDeps, 'db'>, actor: Actor | null, orderGuid: string) {
  const found = await visibleOrder(deps, actor, orderGuid);
  if (found.order.status !== 'open') throw orderNotOpen();
  return found;
}

/** A line item the caller may see, with its order: their own order's or, for an admin, any. */
async function visibleLineItem(deps: Pick<ServerDeps, 'db'>, actor: Actor | null, guid: string): Promise<{ item: LineItemRow; order: OrderRow; photographer: UserRow }> {
  if (!actor) throw unauthorized();
  const mine = actor.user.isAdmin ? undefined : eq(labOrders.userGuid, actor.user.guid);
  const [row] = await deps.db
    .select({ item: lineItems, order: labOrders, photographer: users })
    .from(lineItems)
    .innerJoin(labOrders, eq(labOrders.id, lineItems.labOrderId))
    .innerJoin(users, eq(users.guid, labOrders.userGuid))
    .where(and(eq(lineItems.guid, guid), mine));
  if (!row) throw notFound(LINE_ITEM_NOT_FOUND);
  return row;
}

/**
 * What a new line needs to know, in one round trip: the line item its client guid made before
 * (its own, or the one the merge rule folded it into; possibly in another order), and the lines
 * of the cart with the same photo and print size (the merge rule's candidates).
 */
async function lineContext(tx: Tx, orderId: number, line: PreparedLine): Promise<{ same: SentBefore | undefined; cart: CartLine[] }> {
  // Selected from the order's (locked) row: one row, whatever the line items hold.
  const [row] = await tx
    .select({
      same: sql<SentBefore | null>`coalesce(
        (SELECT json_build_object('id', l.id, 'labOrderId', l.lab_order_id) FROM ${lineItems} l WHERE l.guid = ${line.guid}),
        (SELECT json_build_object('id', l.id, 'labOrderId', l.lab_order_id) FROM ${lineItemMerges} m JOIN ${lineItems} l ON l.id = m.line_item_id WHERE m.guid = ${line.guid})
      )`,
      cart: sql<CartLine[]>`coalesce((
        SELECT json_agg(json_build_object('id', l.id, 'quantity', l.quantity, 'photoId', l.photograph_id, 'printSizeGuid', l.print_size_guid, 'finishingServiceGuid', l.finishing_service_guid))
        FROM ${lineItems} l
        WHERE l.lab_order_id = ${orderId} AND l.photograph_id = ${line.photoId} AND l.print_size_guid = ${line.product.printSizeGuid}
      ), '[]'::json)`,
    })
    .from(labOrders)
    .where(eq(labOrders.id, orderId));
  return { same: row?.same ?? undefined, cart: row?.cart ?? [] };
}

type SentBefore = { id: number; labOrderId: number };
type CartLine = { id: number; quantity: number; photoId: number; printSizeGuid: string; finishingServiceGuid: string | null };

const cartMeta = (actor: Actor, order: OrderRow) => ({ ...listMeta(actor), order: orderMoney(order) });

/**
 * POST line_items: a batch of 1..30. A guid already in the order is a replay (answered as it
 * stands); a line item of the same product as one in the cart raises that one by 1 instead
 * (docs/orders.md §5), and its guid is remembered, so sending it again raises nothing. Answers one
 * line item per payload, in order: for a merged payload, the line it was merged into (another guid).
 */
export async function addLineItems(deps: ServerDeps, actor: Actor | null, orderGuid: string, inputs: LineItemInput[]) {
  const { order } = await cartOrder(deps, actor, orderGuid);
  const created: { guid: string; cropVersion: number }[] = [];
  // The photos and the catalogue are read on the transaction's connection: under load every
  // query outside it waits its turn for a pooled connection again (server/db/client.ts).
  const { ids, updated } = await deps.db.transaction(async (tx) => {
    const locked = await lockCart(tx, order.id);
    const lines = await prepareLines(tx, order, inputs);
    const answered: number[] = [];
    for (const line of lines) {
      const { same, cart } = await lineContext(tx, order.id, line);
      if (same && same.labOrderId !== order.id) throw validationError(GUID_TAKEN);
      if (same) {
        answered.push(same.id);
        continue;
      }
      const key = { photoGuid: String(line.photoId), printSizeGuid: line.product.printSizeGuid, finishingServiceGuid: line.product.finishingServiceGuid };
      const match = cart.find((c) => sameProduct({ photoGuid: String(c.photoId), printSizeGuid: c.printSizeGuid, finishingServiceGuid: c.finishingServiceGuid }, key));
      if (match) {
        // The merge rule: one more print of the line already in the cart, not the new quantity.
        await tx.update(lineItems).set({ quantity: steppedQuantity(match.quantity, 1), updatedAt: sql`now()` }).where(eq(lineItems.id, match.id));
        await tx.insert(lineItemMerges).values({ guid: line.guid, lineItemId: match.id });
        answered.push(match.id);
        continue;
      }
      const [row] = await tx.insert(lineItems).values({ guid: line.guid, labOrderId: order.id, ...lineValues(line) }).returning({ id: lineItems.id, guid: lineItems.guid, cropVersion: lineItems.cropVersion });
      if (!row) throw new Error('line item not inserted');
      answered.push(row.id);
      created.push(row);
    }
    return { ids: answered, updated: await refreshTotals(tx, locked) };
  });
  await queueCroppedImages(deps, created);
  return { data: await lineItemsById(deps, ids), meta: cartMeta(actor as Actor, updated) };
}

/** PATCH a line item: the product, crop, notes and quantity of the payload, priced again. */
export async function updateLineItem(deps: ServerDeps, actor: Actor | null, orderGuid: string, lineItemGuid: string, input: Omit<LineItemInput, 'guid'> | undefined) {
  const { order } = await cartOrder(deps, actor, orderGuid);
  if (!input) throw badRequest('Send the line item to update.');
  const { item, updated, cropChanged, oldKey } = await deps.db.transaction(async (tx) => {
    const locked = await lockCart(tx, order.id);
    // On the transaction's connection, as in addLineItems.
    const [line] = await prepareLines(tx, order, [{ ...input, guid: lineItemGuid }]);
    if (!line) throw badRequest('Send the line item to update.');
    const [before] = await tx.select().from(lineItems).where(and(eq(lineItems.guid, lineItemGuid), eq(lineItems.labOrderId, order.id)));
    if (!before) throw notFound(LINE_ITEM_NOT_FOUND);
    const values = lineValues(line);
    const moved =
      before.photographId !== values.photographId || before.cropX !== values.cropX || before.cropY !== values.cropY || before.cropW !== values.cropW || before.cropH !== values.cropH;
    const [after] = await tx
      .update(lineItems)
      .set({ ...values, updatedAt: sql`now()`, ...(moved ? { cropVersion: before.cropVersion + 1, croppedKey: null, cropRequestedAt: sql`now()` } : {}) })
      .where(eq(lineItems.id, before.id))
      .returning();
    if (!after) throw notFound(LINE_ITEM_NOT_FOUND);
    return { item: after, updated: await refreshTotals(tx, locked), cropChanged: moved, oldKey: moved ? before.croppedKey : null };
  });
  if (cropChanged) await queueCroppedImages(deps, [item]);
  if (oldKey) await removeCroppedImage(deps, oldKey);
  const [answer] = await lineItemsById(deps, [item.id]);
  if (!answer) throw notFound(LINE_ITEM_NOT_FOUND);
  return { data: answer, meta: cartMeta(actor as Actor, updated) };
}

/** update_quantity, in either body shape of the spec; answers the whole order. */
export async function updateQuantity(deps: ServerDeps, actor: Actor | null, lineItemGuid: string, body: unknown) {
  const { item, order, photographer } = await visibleLineItem(deps, actor, lineItemGuid);
  if (order.status !== 'open') throw orderNotOpen();
  const quantity = readQuantityUpdate(body);
  if (quantity === null) throw badRequest(QUANTITY_INVALID);
  const updated = await deps.db.transaction(async (tx) => {
    const locked = await lockCart(tx, order.id);
    await tx.update(lineItems).set({ quantity, updatedAt: sql`now()` }).where(eq(lineItems.id, item.id));
    return refreshTotals(tx, locked);
  });
  return fullOrderAnswer(deps, actor as Actor, updated, photographer);
}

/** DELETE a line item; one already gone is 404 (the client takes that as done). Answers the whole order. */
export async function deleteLineItem(deps: ServerDeps, actor: Actor | null, lineItemGuid: string) {
  const { item, order, photographer } = await visibleLineItem(deps, actor, lineItemGuid);
  if (order.status !== 'open') throw orderNotOpen();
  const updated = await deps.db.transaction(async (tx) => {
    const locked = await lockCart(tx, order.id);
    const gone = await tx.delete(lineItems).where(eq(lineItems.id, item.id)).returning({ id: lineItems.id });
    if (!gone.length) throw notFound(LINE_ITEM_NOT_FOUND);
    return refreshTotals(tx, locked);
  });
  if (item.croppedKey) await removeCroppedImage(deps, item.croppedKey);
  return fullOrderAnswer(deps, actor as Actor, updated, photographer);
}

/**
 * retrieve_full_order: the order, its figures and its line items, for the builder and the review:
 * every line item, or with `page` one page of them and the cursor of the next.
 */
export async function retrieveFullOrder(deps: ServerDeps, actor: Actor | null, orderGuid: string, page?: LineItemPage) {
  const { order, photographer } = await visibleOrder(deps, actor, orderGuid);
  return fullOrderAnswer(deps, actor as Actor, order, photographer, page);
}
