import { useState, type FormEvent } from 'react';
import { patchOrderAsAdmin } from '../../api/orders-admin.ts';
import type { OrderDetailAttributes } from '../../api/orders-detail.ts';
import { isOrderStatus, needsReasonWhenUnpaid, ORDER_STATUSES, STATUS_REASON_MAX, type OrderStatus } from '../../domain/order-status.ts';

type Run = (label: string, call: () => Promise<unknown>, done: string) => Promise<boolean>;

/**
 * The order's status. An order nobody paid for goes to printing, framing or shipped only with the
 * admin's reason ("paid by other means", "test print"), which the lab records in the history: the
 * choice opens a reason form instead of moving the order.
 */
export function AdminStatus({ order, busy, run }: { order: OrderDetailAttributes; busy: string | null; run: Run }) {
  const [asked, setAsked] = useState<OrderStatus | null>(null);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const move = (value: OrderStatus, why?: string) =>
    run('The status change', () => patchOrderAsAdmin(order.guid, { type: 'status', value, ...(why ? { reason: why } : {}) }), `Status set to ${value}.`);

  const choose = (value: string) => {
    if (!isOrderStatus(value)) return;
    if (!order.paid_at && needsReasonWhenUnpaid(value)) {
      setAsked(value);
      setProblem(null);
      return;
    }
    setAsked(null);
    void move(value);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!asked) return;
    if (!reason.trim()) {
      setProblem('Say why this unpaid order may go on.');
      return;
    }
    void move(asked, reason.trim()).then((ok) => {
      if (!ok) return;
      setAsked(null);
      setReason('');
    });
  };

  return (
    <>
      {/* Not wrapped in its label: a wrapping label's name would take the chosen option's words too. */}
      <div className="field">
        <label htmlFor="order-status">Status</label>
        <select id="order-status" value={asked ?? order.status} disabled={busy !== null} onChange={(e) => choose(e.target.value)}>
          {ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s.toUpperCase()}
            </option>
          ))}
        </select>
      </div>
      {asked ? (
        <form className="admin-status-reason" onSubmit={submit} aria-label="Reason for an unpaid order" noValidate>
          <p id="unpaid-status-why">
            This order is not paid yet. Say why it may go to {asked} anyway, for example "paid by other means" or "test print". The reason is recorded in the history.
          </p>
          <label className="field">
            <span>Reason</span>
            <input
              value={reason}
              maxLength={STATUS_REASON_MAX}
              aria-describedby={problem ? 'unpaid-status-why unpaid-status-problem' : 'unpaid-status-why'}
              aria-invalid={problem ? true : undefined}
              onChange={(e) => setReason(e.target.value)}
            />
          </label>
          {problem ? (
            <p id="unpaid-status-problem" className="form-error" role="alert">
              {problem}
            </p>
          ) : null}
          <div className="admin-status-actions">
            <button type="submit" className="button primary" disabled={busy !== null}>
              SET {asked.toUpperCase()}
            </button>
            <button type="button" className="button" disabled={busy !== null} onClick={() => setAsked(null)}>
              KEEP {order.status.toUpperCase()}
            </button>
          </div>
        </form>
      ) : null}
    </>
  );
}
