import { useCallback, useEffect, useState } from 'react';
import { errorLines } from '../../api/errors.ts';
import { resendDelivery, webhookDeliveries, type Webhook, type WebhookDelivery } from '../../api/webhooks.ts';
import { toast } from '../../ui/toasts/toast-store.ts';

const STATE_WORDS: Record<WebhookDelivery['state'], string> = {
  pending: 'Sending',
  delivered: 'Delivered',
  failed: 'Failed',
  dropped: 'Not sent',
};

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '');

/** A webhook's recent deliveries with each one's last answer, and RESEND. */
export function WebhookDeliveryLog({ webhook }: { webhook: Webhook }) {
  const [rows, setRows] = useState<WebhookDelivery[] | null>(null);
  const load = useCallback(() => webhookDeliveries(webhook.guid).then((a) => setRows(a.data), (err: unknown) => toast.error(errorLines(err))), [webhook.guid]);
  useEffect(() => void load(), [load]);

  const resend = async (d: WebhookDelivery) => {
    try {
      await resendDelivery(d.guid);
      toast.success(`${d.event_type} is being sent again.`);
      await load();
    } catch (err) {
      toast.error(errorLines(err));
    }
  };

  if (rows === null) return <p role="status">loading</p>;
  if (rows.length === 0) return <p className="muted">Nothing sent to this webhook yet.</p>;
  return (
    // Focusable, as it scrolls sideways on a phone: the keyboard can scroll it too.
    <div className="webhook-log" role="region" aria-label={`Delivery log of ${webhook.url}`} tabIndex={0}>
      <button type="button" className="button" onClick={() => void load()}>
        REFRESH
      </button>
      <table aria-label={`Deliveries to ${webhook.url}`}>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">State</th>
            <th scope="col">Tries</th>
            <th scope="col">Last answer</th>
            <th scope="col">Last try</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((d) => (
            <tr key={d.guid}>
              <td>{d.event_type}</td>
              <td>{STATE_WORDS[d.state]}</td>
              <td>{d.attempts}</td>
              <td>{d.last_status_code === null ? (d.last_answer ?? '') : `HTTP ${d.last_status_code}${d.last_answer ? `: ${d.last_answer}` : ''}`}</td>
              <td>{when(d.last_attempt_at ?? d.created_at)}</td>
              <td>
                <button type="button" className="button" aria-label={`RESEND ${d.event_type} ${when(d.created_at)}`} onClick={() => void resend(d)}>
                  RESEND
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
