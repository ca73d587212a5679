import { useState, type FormEvent } from 'react';
import { postDelay } from '../../api/orders-admin.ts';
import type { OrderDetailAttributes } from '../../api/orders-detail.ts';
import { formatLabDay, isBusinessDay, isLabDate } from '../../domain/ship-dates.ts';

type Run = (label: string, call: () => Promise<unknown>, done: string) => Promise<boolean>;

// The lab's statuses for an order it still has to ship: only those can be delayed.
const IN_THE_LAB = new Set(['paid', 'printing', 'framing']);
// As the server's limit (src/contract/order-tools.ts DELAY_REASON_MAX): the page never loads the contract's schemas.
const REASON_MAX = 300;

/** POST DELAY: a later promised ship date and the reason the photographer reads in the mail. */
export function AdminDelayForm({ order, busy, run }: { order: OrderDetailAttributes; busy: string | null; run: Run }) {
  const [date, setDate] = useState('');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  if (!order.paid_at || !IN_THE_LAB.has(order.status)) return null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!isLabDate(date) || !isBusinessDay(date)) return setProblem('Choose a weekday for the new ship date.');
    if (!reason.trim()) return setProblem('Give the reason the photographer will read.');
    setProblem(null);
    void run('The delay', () => postDelay(order.guid, date, reason.trim()), `The photographer is told: ships by ${formatLabDay(date)}.`).then((ok) => {
      if (ok) {
        setDate('');
        setReason('');
      }
    });
  };

  return (
    <form className="admin-block" onSubmit={submit} aria-label="Delay" noValidate>
      <h3>DELAY</h3>
      <p className="muted">Promised: {order.ship_dates ? formatLabDay(order.ship_dates.ship_by) : 'no date yet'}</p>
      <label className="field">
        <span>New ship date</span>
        <input type="date" value={date} onChange={(e) => setDate(e.target.value)} aria-invalid={problem ? true : undefined} />
      </label>
      <label className="field">
        <span>Reason for the photographer</span>
        <input type="text" value={reason} maxLength={REASON_MAX} onChange={(e) => setReason(e.target.value)} />
      </label>
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={busy !== null}>
        POST DELAY
      </button>
    </form>
  );
}
