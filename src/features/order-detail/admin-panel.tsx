import { useEffect, useState } from 'react';
import { Link } from '../../ui/router.tsx';
import { createZipFile, patchOrderAsAdmin } from '../../api/orders-admin.ts';
import type { OrderDetailAttributes } from '../../api/orders-detail.ts';
import { colorCorrectionLabel } from '../../client-rules/order-actions-photographer.ts';
import { eventText } from '../../client-rules/order-detail.ts';
import { orderCardDate } from '../../client-rules/order-list.ts';
import { ROUTES } from '../../app/routes.ts';
import { routePath } from '../../domain/paths.ts';
import { AdminTextForms, RefundForm } from './admin-forms.tsx';
import { AdminAddress } from './admin-address.tsx';
import { AdminDelayForm } from './admin-delay-form.tsx';
import { AdminStatus } from './admin-status.tsx';
import { BlindSlipAdmin } from './blind-slip-admin.tsx';
import { useAdminAction } from './use-admin-action.ts';
import { usePollWhile } from './use-poll-while.ts';
import { VendorSend } from './vendor-send.tsx';

// The zip is built by a job: the order is read again this often until its link is there, at most
// this many times (5 minutes: a large order's originals take a while to stream).
const ZIP_POLL_MS = 3000;
const ZIP_POLLS_MAX = 100;
// A vendor send retries with backoff for about four minutes (vendor-send.ts VENDOR_RETRY): read
// every 2 s, for at most 5 minutes.
const VENDOR_POLL_MS = 2000;
const VENDOR_POLLS_MAX = 150;

/** The lab's tools on one order (docs/orders.md §6 Admin panel; docs/api.md §6). */
export function AdminPanel({ order, onChanged }: { order: OrderDetailAttributes; onChanged: () => void }) {
  const { busy, run } = useAdminAction(onChanged);
  // How many times the order was read again since CREATE ZIP (null: no zip asked for here).
  const [zipPolls, setZipPolls] = useState<number | null>(null);
  const link = order.download_all_link ?? null;
  const zipWaiting = zipPolls !== null && !link && zipPolls < ZIP_POLLS_MAX;
  // A send is the lab's job: read the order again until it is received or has failed for good.
  const vendorState = order.vendor_send_status?.state;
  const vendorPolling = usePollWhile(vendorState === 'queued' || vendorState === 'retrying', onChanged, VENDOR_POLL_MS, VENDOR_POLLS_MAX);

  useEffect(() => {
    if (!zipWaiting) return;
    const timer = setInterval(() => {
      onChanged();
      setZipPolls((n) => (n ?? 0) + 1);
    }, ZIP_POLL_MS);
    return () => clearInterval(timer);
  }, [zipWaiting, onChanged]);

  const photographer = order.photographer;

  return (
    <aside className="admin-panel" aria-label="Admin panel">
      <h2>ADMIN</h2>

      <section aria-label="Photographer" className="admin-block">
        <h3>PHOTOGRAPHER</h3>
        <p>
          {photographer?.name ?? order.photographer_name}
          {(photographer?.business ?? order.photographer_business) ? <span className="muted"> · {photographer?.business ?? order.photographer_business}</span> : null}
        </p>
        <p className="muted break">{photographer?.email ?? order.photographer_email}</p>
        <Link className="button" to={routePath(ROUTES.photographer, { guid: photographer?.guid ?? order.photographer_id })}>
          PHOTOGRAPHER PAGE
        </Link>
        <p className="muted">PAID: {order.paid_at ? orderCardDate(order.paid_at) : 'not paid yet'}</p>
        <p className={order.color_correction === 'as_is' ? 'admin-colour as-is' : 'admin-colour'}>COLOUR CORRECTION: {colorCorrectionLabel(order.color_correction).toUpperCase()}</p>
      </section>

      <section aria-label="Urgent and status" className="admin-block">
        <button
          type="button"
          className={order.urgent ? 'button' : 'button danger'}
          disabled={busy !== null}
          onClick={() => void run(order.urgent ? 'Unflag' : 'Flag', () => patchOrderAsAdmin(order.guid, { type: 'urgent', value: !order.urgent }), order.urgent ? 'No longer urgent.' : 'Flagged urgent.')}
        >
          {order.urgent ? 'UNFLAG URGENT' : 'FLAG URGENT'}
        </button>
        <AdminStatus order={order} busy={busy} run={run} />
      </section>

      <AdminTextForms order={order} busy={busy} run={run} />
      <RefundForm order={order} busy={busy} run={run} />
      <AdminDelayForm order={order} busy={busy} run={run} />

      <section aria-label="Files and vendor" className="admin-block">
        <h3>FILES</h3>
        {link ? (
          <a className="button primary" href={link}>
            DOWNLOAD ALL
          </a>
        ) : zipWaiting ? (
          <p role="status">The zip is being made; DOWNLOAD ALL appears here when it is ready.</p>
        ) : null}
        <button
          type="button"
          className="button"
          disabled={busy !== null || zipWaiting}
          onClick={() =>
            void run('Creating the zip', () => createZipFile(order.guid), 'The zip of every original is being made.').then((ok) => ok && setZipPolls(0))
          }
        >
          {link ? 'RE-CREATE ZIP' : 'CREATE ZIP'}
        </button>
        <BlindSlipAdmin order={order} busy={busy} run={run} />
        <VendorSend order={order} busy={busy} run={run} sending={vendorPolling} />
      </section>

      <AdminAddress order={order} busy={busy} run={run} />

      <section aria-label="History" className="admin-block" role="region">
        <h3>HISTORY</h3>
        {order.events?.length ? (
          <ol className="admin-events">
            {order.events.map((e, i) => (
              <li key={`${e.created_at}-${i}`}>
                <span>{eventText(e)}</span>
                <span className="muted">
                  {' '}
                  {e.actor_name ?? 'the lab'} · {orderCardDate(e.created_at)}
                </span>
              </li>
            ))}
          </ol>
        ) : (
          <p className="muted">Nothing changed by the lab yet.</p>
        )}
      </section>
    </aside>
  );
}
