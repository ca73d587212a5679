import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { toDollars } from '../../src/domain/money.ts';
import { shippingMethod } from '../../src/domain/shipping-speeds.ts';
import type { JobAttempt, RetryPolicy } from '../adapters/jobs/jobs.ts';
import { labOrders, users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { validationError } from '../http/errors.ts';
import type { Actor } from './auth-service.ts';
import { fullName } from './auth-service.ts';
import { clientAddressAnswer, clientAddressOf } from './client-address.ts';
import { lineItemsOfOrder } from './line-item-answer.ts';
import { blindSlipShipTo, storeOrderPackingSlip } from './packing-slip-pdf.ts';
import { signPhotoKey } from './photo-service.ts';
import { visibleOrder } from './order-access.ts';
import { recordEvent } from './order-events.ts';
import { requireAdmin } from './admin-guard.ts';

/**
 * SEND TO VENDOR (docs/lab-rules.md §2): a background job POSTs the order's JSON to
 * VENDOR_API_URL, retried with backoff while the vendor fails, and records last_sent_to_vendor_at.
 */

export const VENDOR_SEND_QUEUE = 'vendor-send';
export const NO_VENDOR = 'No vendor API is configured.';
// A vendor that is briefly down (a deploy, a restart) is tried again after 1, 2, 4 … 128 s: about
// four minutes in all; longer outages are for the admin's SEND AGAIN.
export const VENDOR_RETRY: RetryPolicy = { retryLimit: 8, retryDelay: 1, retryBackoff: true };
// A vendor answers an order's JSON within seconds; a hung connection must not hold the worker.
const VENDOR_TIMEOUT_MS = 30_000;

export interface VendorJob {
  orderGuid: string;
  /** The same for every try of one send: the vendor can tell a retry from a new send. */
  sendId: string;
}

/** POST /lab_orders/{id}/send_to_api (admin): queues the send; 422 without a vendor configured. */
export async function requestVendorSend(deps: ServerDeps, actor: Actor | null, guid: string) {
  const admin = requireAdmin(actor);
  const { order } = await visibleOrder(deps, admin, guid);
  if (!deps.config.vendorApiUrl) throw validationError(NO_VENDOR);
  await recordEvent(deps.db, order.id, admin.user.guid, 'vendor_send', { to: 'queued', detail: order.lastSentToVendorAt ? 'Sent again to the vendor: queued' : 'Sent to the vendor: queued' });
  await deps.jobs.send(VENDOR_SEND_QUEUE, { orderGuid: order.guid, sendId: randomUUID() } satisfies VendorJob, VENDOR_RETRY);
  return { success: true as const };
}

/**
 * The order as the vendor receives it: who, where to (the client's address on a drop-ship), how
 * fast, every print with its original's signed URL and, on a drop-ship with a blind slip, the
 * studio's packing slip to pack instead of the lab's, signed the same way.
 */
async function vendorPayload(deps: Pick<ServerDeps, 'db' | 'storage' | 'now'>, order: typeof labOrders.$inferSelect) {
  const [owner] = await deps.db.select().from(users).where(eq(users.guid, order.userGuid));
  const client = order.localPickup ? null : await clientAddressOf(deps.db, order.id);
  const slipTo = await blindSlipShipTo(deps.db, order);
  const slipKey = slipTo ? await storeOrderPackingSlip(deps, order, slipTo) : null;
  return {
    order: {
      guid: order.guid,
      order_name: order.orderName,
      status: order.status,
      paid_at: order.paidAt?.toISOString() ?? null,
      total: toDollars(order.totalCents),
      notes: order.notes,
      color_correction: order.colorCorrection,
      local_pickup: order.localPickup,
      boutique_shipping: order.boutiqueShipping,
      boutique_shipping_note: order.boutiqueNote,
      shipping_address: order.shippingAddress,
      shipping_method: shippingMethod(order.localPickup, order.shippingSpeed),
      // Drop-ship (issue 34): the parcel goes to the photographer's client, not to the studio.
      drop_ship_address: client ? clientAddressAnswer(client) : null,
      // The studio's blind slip (docs/lab-rules.md §9): no lab name, no prices. Its link lives as
      // long as the originals' links, since the vendor fetches both when it packs.
      blind_slip: slipKey !== null,
      packing_slip_url: slipKey ? await signPhotoKey(deps, slipKey) : null,
      photographer: owner ? { guid: owner.guid, name: fullName(owner), business: owner.businessName, email: owner.email } : null,
      line_items: await lineItemsOfOrder(deps, order.id),
    },
  };
}

/** Where the order's latest send stands: queued, retrying, sent or failed (the `to` of its newest event). */
export type VendorSendState = 'queued' | 'retrying' | 'sent' | 'failed';
const STATES: readonly string[] = ['queued', 'retrying', 'sent', 'failed'] satisfies VendorSendState[];

/**
 * The order's vendor send as the admin panel shows it, from its events (newest first): the newest
 * vendor event says where the latest send stands; null when the order was never sent.
 */
export function vendorSendStatus(events: { kind: string; to: string | null; detail: string | null; created_at: string }[]) {
  const last = events.find((e) => (e.kind === 'vendor_send' || e.kind === 'vendor_send_failed') && e.to !== null && STATES.includes(e.to));
  return last ? { state: last.to as VendorSendState, detail: last.detail, at: last.created_at } : null;
}

/**
 * The job: one POST; anything but a 2xx throws, and pg-boss tries again after the backoff. The
 * last try's failure is recorded as such (vendor_send_failed): the panel shows it with SEND AGAIN.
 */
export async function sendToVendor(deps: Pick<ServerDeps, 'db' | 'storage' | 'now' | 'config'>, job: VendorJob, attempt: JobAttempt): Promise<void> {
  const url = deps.config.vendorApiUrl;
  if (!url) throw new Error(NO_VENDOR);
  const [order] = await deps.db.select().from(labOrders).where(eq(labOrders.guid, job.orderGuid));
  if (!order) return; // Deleted meanwhile.
  let failure: string | null = null;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': `lab-order-${order.guid}-send-${job.sendId}` },
      body: JSON.stringify(await vendorPayload(deps, order)),
      signal: AbortSignal.timeout(VENDOR_TIMEOUT_MS),
    });
    if (!res.ok) failure = `the vendor answered HTTP ${res.status}`;
  } catch (err) {
    failure = `the vendor could not be reached (${err instanceof Error ? err.message : String(err)})`;
  }
  if (failure) {
    const tries = attempt.retryCount + 1;
    if (attempt.retryCount >= attempt.retryLimit) {
      await recordEvent(deps.db, order.id, null, 'vendor_send_failed', { to: 'failed', detail: `Vendor send failed after ${tries} ${tries === 1 ? 'try' : 'tries'}: ${failure}` });
    } else {
      await recordEvent(deps.db, order.id, null, 'vendor_send', { to: 'retrying', detail: `Send failed (try ${tries} of ${attempt.retryLimit + 1}): ${failure}; trying again shortly` });
    }
    throw new Error(`vendor send of ${order.guid}: ${failure}`);
  }
  await deps.db.transaction(async (tx) => {
    await tx.update(labOrders).set({ lastSentToVendorAt: new Date() }).where(eq(labOrders.id, order.id));
    await recordEvent(tx, order.id, null, 'vendor_send', { to: 'sent', detail: 'Received by the vendor' });
  });
}
