import { asc, eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { blindSlipAllowed, returnAddressLines } from '../../src/domain/packing-slip.ts';
import { DOWNLOAD_URL_TTL_S } from '../adapters/storage/storage.ts';
import { finishingDetails, finishingServices, lineItems, papers, printSizes, users } from '../db/schema.ts';
import type { Db, Tx } from '../db/client.ts';
import type { ServerDeps } from '../deps.ts';
import { validationError } from '../http/errors.ts';
import { textPdf, type PdfJpeg } from '../reports/pdf.ts';
import { requireAdmin } from './admin-guard.ts';
import type { Actor } from './auth-service.ts';
import { clientAddressOf, type ClientAddressRow } from './client-address.ts';
import { visibleOrder, type OrderRow } from './order-access.ts';

/**
 * The blind packing slip of an order (docs/lab-rules.md §9): the studio's business name, logo
 * and return address, the ship-to and the items. Nothing names the lab and nothing has a price:
 * the parcel reaches the studio's client as if the studio had packed it.
 */

export const PACKING_SLIP_FILE = 'packing-slip.pdf';
export const NO_BLIND_SLIP = 'This order has no blind packing slip.';

type SlipDeps = Pick<ServerDeps, 'db' | 'storage'>;

/**
 * Whether the order travels with a blind slip: chosen, and allowed for how it leaves the lab (a
 * drop-ship: the slip's ship-to is the client). Null when it does not; the client's address when it does.
 */
export async function blindSlipShipTo(db: Db | Tx, order: Pick<OrderRow, 'id' | 'blindSlip' | 'localPickup'>): Promise<ClientAddressRow | null> {
  if (!order.blindSlip) return null;
  const client = await clientAddressOf(db, order.id);
  return client && blindSlipAllowed({ localPickup: order.localPickup, dropShip: true }) ? client : null;
}

async function readAll(deps: Pick<ServerDeps, 'storage'>, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await deps.storage.stream(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The logo as kept (the slip's JPEG, packing-slip-service.ts); only its header is read here. */
async function logoImage(deps: Pick<ServerDeps, 'storage'>, key: string | null): Promise<PdfJpeg | undefined> {
  if (!key) return undefined;
  const bytes = await readAll(deps, key);
  const { width = 0, height = 0 } = await sharp(bytes).metadata();
  return { bytes, width, height };
}

/**
 * The order's prints as the slip lists them: quantity, paper, size, and the finishing with its
 * details by name, in the order they were added. Read here, not through the cart's answer, which
 * signs every photo's links for nothing.
 */
async function slipItems(deps: Pick<ServerDeps, 'db'>, orderId: number) {
  const rows = await deps.db
    .select({ quantity: lineItems.quantity, paper: papers.name, size: printSizes.name, finishing: finishingServices.name, detailGuids: lineItems.finishingDetailGuids })
    .from(lineItems)
    .innerJoin(printSizes, eq(printSizes.guid, lineItems.printSizeGuid))
    .innerJoin(papers, eq(papers.guid, printSizes.paperGuid))
    .leftJoin(finishingServices, eq(finishingServices.guid, lineItems.finishingServiceGuid))
    .where(eq(lineItems.labOrderId, orderId))
    .orderBy(asc(lineItems.id));
  const guids = [...new Set(rows.flatMap((r) => r.detailGuids))];
  const details = guids.length ? await deps.db.select({ guid: finishingDetails.guid, name: finishingDetails.name }).from(finishingDetails).where(inArray(finishingDetails.guid, guids)) : [];
  const nameOf = new Map(details.map((d) => [d.guid, d.name]));
  return rows.map((r) => ({ ...r, finishing: r.finishing ? [r.finishing, ...r.detailGuids.map((g) => nameOf.get(g) ?? '')].filter(Boolean).join(', ') : '' }));
}

// Courier columns: quantity, paper, size; the finishing takes the rest of the line.
const cell = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}.` : text.padEnd(width));

/** The slip's PDF: made by the order's zip job, and on an admin's download. */
export async function packingSlipPdf(deps: SlipDeps, order: OrderRow, to: ClientAddressRow): Promise<Buffer> {
  const [studio] = await deps.db
    .select({ businessName: users.businessName, returnAddress: users.packingSlipReturnAddress, logoKey: users.packingSlipLogoKey })
    .from(users)
    .where(eq(users.guid, order.userGuid));
  const items = await slipItems(deps, order.id);
  const shipTo = [to.recipient, to.street, to.street2 ?? '', `${to.city}, ${to.state} ${to.zip}`].filter((line) => line.trim() !== '');
  const lines = [
    { text: studio?.businessName ?? '', bold: true },
    ...(studio?.returnAddress ? returnAddressLines(studio.returnAddress) : []).map((text) => ({ text })),
    { text: '' },
    { text: 'PACKING SLIP', bold: true },
    { text: '' },
    { text: 'SHIP TO', bold: true },
    ...shipTo.map((text) => ({ text })),
    { text: '' },
    { text: `${'QTY'.padEnd(5)}${cell('PAPER', 22)} ${cell('SIZE', 12)} FINISHING`, bold: true },
    ...items.map((item) => ({
      text: `${String(item.quantity).padEnd(5)}${cell(item.paper, 22)} ${cell(item.size, 12)} ${item.finishing}`,
    })),
    { text: '' },
    { text: `${items.reduce((n, item) => n + item.quantity, 0)} prints. Thank you for your order.` },
  ];
  const image = await logoImage(deps, studio?.logoKey ?? null);
  return textPdf(lines, image ? { image } : {});
}

/**
 * The order's slip made now and stored at the order's one slip key (a later one replaces it, as
 * the studio's identity may have changed): for the admin's download and the vendor's send.
 */
export async function storeOrderPackingSlip(deps: SlipDeps, order: OrderRow, to: ClientAddressRow): Promise<string> {
  const key = `packing-slips/orders/${order.guid}/${PACKING_SLIP_FILE}`;
  await deps.storage.put(key, await packingSlipPdf(deps, order, to), 'application/pdf');
  return key;
}

/** GET /lab_orders/{id}/packing_slip (admin): the slip alone, stored and signed for download. */
export async function orderPackingSlip(deps: ServerDeps, actor: Actor | null, guid: string) {
  const admin = requireAdmin(actor);
  const { order } = await visibleOrder(deps, admin, guid);
  const to = await blindSlipShipTo(deps.db, order);
  if (!to) throw validationError(NO_BLIND_SLIP);
  const key = await storeOrderPackingSlip(deps, order, to);
  return { packing_slip_link: await deps.storage.presignGet(key, { expiresInSeconds: DOWNLOAD_URL_TTL_S, downloadName: PACKING_SLIP_FILE }) };
}
