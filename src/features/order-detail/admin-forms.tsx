import { useState, type FormEvent } from 'react';
import { patchOrderAsAdmin, refundOrder } from '../../api/orders-admin.ts';
import type { OrderDetailAttributes } from '../../api/orders-detail.ts';
import { formatMoney, toCents } from '../../domain/money.ts';
import { INTERNAL_NOTES_MAX, refundAmount, refundDollars, TRACKING_URL_MAX, trackingUrlProblem } from '../../client-rules/order-detail.ts';

type Run = (label: string, call: () => Promise<unknown>, done: string) => Promise<boolean>;

/** The admin note (internal_notes) and the tracking link, each saved on its own. */
export function AdminTextForms({ order, busy, run }: { order: OrderDetailAttributes; busy: string | null; run: Run }) {
  const [note, setNote] = useState(order.internal_notes ?? '');
  const [tracking, setTracking] = useState(order.tracking_url ?? '');
  const trackingProblem = trackingUrlProblem(tracking);
  const [showProblem, setShowProblem] = useState(false);

  const saveNote = (e: FormEvent) => {
    e.preventDefault();
    void run('Saving the admin note', () => patchOrderAsAdmin(order.guid, { type: 'internal_notes', value: note }), 'Admin note saved.');
  };
  const saveTracking = (e: FormEvent) => {
    e.preventDefault();
    setShowProblem(true);
    if (trackingProblem) return;
    void run('Saving the tracking link', () => patchOrderAsAdmin(order.guid, { type: 'tracking_url', value: tracking.trim() }), 'Tracking link saved.');
  };

  return (
    <>
      <form className="admin-block" onSubmit={saveNote} aria-label="Admin note">
        <label className="field">
          <span>Admin note</span>
          <textarea value={note} maxLength={INTERNAL_NOTES_MAX} rows={4} onChange={(e) => setNote(e.target.value)} />
        </label>
        <p className="muted">
          {note.length}/{INTERNAL_NOTES_MAX}
        </p>
        <button type="submit" className="button" disabled={busy !== null || note === (order.internal_notes ?? '')}>
          SAVE NOTE
        </button>
      </form>
      <form className="admin-block" onSubmit={saveTracking} aria-label="Tracking link" noValidate>
        <label className="field">
          <span>Tracking URL</span>
          <input
            type="url"
            inputMode="url"
            value={tracking}
            maxLength={TRACKING_URL_MAX}
            aria-invalid={showProblem && trackingProblem ? true : undefined}
            aria-describedby={showProblem && trackingProblem ? 'tracking-problem' : undefined}
            onChange={(e) => setTracking(e.target.value)}
          />
        </label>
        {showProblem && trackingProblem ? (
          <p id="tracking-problem" className="form-error" role="alert">
            {trackingProblem}
          </p>
        ) : null}
        <button type="submit" className="button" disabled={busy !== null || tracking.trim() === (order.tracking_url ?? '')}>
          SAVE TRACKING
        </button>
      </form>
    </>
  );
}

/** A refund with its reason: at most what was paid less earlier refunds, sent with 2 decimals. */
export function RefundForm({ order, busy, run }: { order: OrderDetailAttributes; busy: string | null; run: Run }) {
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const paidCents = order.paid_at ? toCents(order.total) : 0;
  const leftCents = Math.max(0, paidCents - toCents(order.refund_amount ?? 0));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = refundAmount(amount, leftCents);
    if ('problem' in checked) {
      setProblem(checked.problem);
      return;
    }
    if (!reason.trim()) {
      setProblem('Say why the order is refunded.');
      return;
    }
    setProblem(null);
    void run('The refund', () => refundOrder(order.guid, refundDollars(checked.cents), reason.trim()), `Refunded ${formatMoney(checked.cents)}.`).then((ok) => {
      if (ok) {
        setAmount('');
        setReason('');
      }
    });
  };

  return (
    <form className="admin-block" onSubmit={submit} aria-label="Refund" noValidate>
      <h3>REFUND</h3>
      <p className="muted">
        {paidCents === 0 ? 'Nothing was paid for this order.' : `Paid ${formatMoney(paidCents)}; ${formatMoney(leftCents)} left to refund.`}
      </p>
      {order.refunds?.length ? (
        <ul className="admin-refunds">
          {order.refunds.map((r) => (
            <li key={r.created_at}>
              {formatMoney(toCents(r.amount))}
              {r.note ? ` — ${r.note}` : ''}
              {r.status === 'pending' ? ' (pending: being confirmed with the payment provider)' : ''}
            </li>
          ))}
        </ul>
      ) : null}
      <label className="field">
        <span>Refund amount ($)</span>
        <input type="text" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} aria-invalid={problem ? true : undefined} />
      </label>
      <label className="field">
        <span>Reason</span>
        <input type="text" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
      </label>
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      <button type="submit" className="button danger" disabled={busy !== null || leftCents === 0}>
        REFUND
      </button>
    </form>
  );
}
