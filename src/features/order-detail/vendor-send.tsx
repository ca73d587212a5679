import { sendToVendor } from '../../api/orders-admin.ts';
import type { OrderDetailAttributes } from '../../api/orders-detail.ts';
import { orderCardDate } from '../../client-rules/order-list.ts';

type Run = (label: string, call: () => Promise<unknown>, done: string) => Promise<boolean>;

/**
 * SEND TO VENDOR / SEND AGAIN (docs/orders.md §6) and where the latest send stands: on its way (the
 * lab retries a failing vendor), received (last_sent_to_vendor_at), or failed after its tries.
 */
export function VendorSend({ order, busy, run, sending }: { order: OrderDetailAttributes; busy: string | null; run: Run; sending: boolean }) {
  const status = order.vendor_send_status ?? null;
  const sentBefore = Boolean(order.last_sent_to_vendor_at) || status !== null;
  // docs/orders.md §6: send to the vendor API "when vendor set"; a lab without one has nothing to send to.
  if (order.vendor_configured === false && !sentBefore) return <p className="muted">No vendor API is set up for this lab (VENDOR_API_URL).</p>;
  return (
    <>
      <button
        type="button"
        className="button"
        // One send at a time: a second while the first is retried would reach the vendor twice.
        disabled={busy !== null || sending}
        onClick={() => void run('Sending to the vendor', () => sendToVendor(order.guid), 'The order is on its way to the vendor.')}
      >
        {sentBefore ? 'SEND AGAIN' : 'SEND TO VENDOR'}
      </button>
      <div role="status" aria-label="Vendor send">
        {status?.state === 'failed' ? (
          <p className="admin-notice">{status.detail}</p>
        ) : status?.state === 'queued' || status?.state === 'retrying' ? (
          <p>{status.state === 'retrying' ? `Sending to the vendor: ${status.detail ?? 'the vendor failed; trying again'}` : 'Sending to the vendor…'}</p>
        ) : null}
        <p className="muted">{order.last_sent_to_vendor_at ? `Last sent to the vendor ${orderCardDate(order.last_sent_to_vendor_at)}` : 'Not sent to a vendor yet.'}</p>
      </div>
    </>
  );
}
