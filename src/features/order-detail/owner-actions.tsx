import { useEffect, useState } from 'react';
import { updateCheckout } from '../../api/checkout.ts';
import { errorText, logErrorDetails } from '../../api/errors.ts';
import { cancelOrder } from '../../api/order-actions.ts';
import type { OrderDetailAttributes } from '../../api/orders-detail.ts';
import { formatMoney, toCents } from '../../domain/money.ts';
import {
  cancelConfirmText,
  cancellation,
  canChooseColorCorrection,
  canReorder,
  clockTime,
  colorCorrectionLabel,
  type ColorCorrection,
} from '../../client-rules/order-actions-photographer.ts';
import { ColourCorrectionChoice } from '../../ui/colour-correction-choice.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { ReorderDialog } from './reorder-dialog.tsx';

// The offer is re-read at least this often, so CANCEL ORDER goes when the window closes even on a
// page left open (a timer of the whole window could be delayed by a sleeping laptop).
const CANCEL_RECHECK_MS = 15_000;

/** Now, read again when the window closes (and every CANCEL_RECHECK_MS while it is open). */
function useNow(untilIso: string | null | undefined): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (!untilIso) return;
    const until = new Date(untilIso).getTime();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const next = () => {
      const left = until - Date.now();
      // Past the end: one last reading (the offer goes), then nothing more to wait for.
      timer = left >= 0 ? setTimeout(tick, Math.min(CANCEL_RECHECK_MS, left + 50)) : undefined;
    };
    const tick = () => {
      setNow(new Date());
      next();
    };
    next();
    return () => clearTimeout(timer);
  }, [untilIso]);
  return now;
}

/**
 * The photographer's buttons on their own order (issue 13): REORDER on an order no longer open,
 * CANCEL ORDER while paid within the window. An admin acting as the photographer sees them too
 * (their session is the photographer's).
 */
export function OwnerButtons({ order, onChanged }: { order: OrderDetailAttributes; onChanged: () => void }) {
  const [asking, setAsking] = useState<'reorder' | 'cancel' | null>(null);
  const [busy, setBusy] = useState(false);
  const offer = cancellation(order, useNow(order.cancel_until));

  const confirmCancel = () => {
    setBusy(true);
    cancelOrder(order.guid).then(
      () => {
        const { cardCents } = refundOf(order);
        toast.success(cardCents > 0 ? `${order.order_name} is cancelled: ${formatMoney(cardCents)} is refunded to your card.` : `${order.order_name} is cancelled.`);
        setAsking(null);
        setBusy(false);
        onChanged();
      },
      (err: unknown) => {
        // Lost the race (the lab started it, the window closed): the lab's words, and the order as it is now.
        logErrorDetails(err);
        toast.error(`${order.order_name} could not be cancelled: ${errorText(err)}`);
        setAsking(null);
        setBusy(false);
        onChanged();
      },
    );
  };

  return (
    <>
      {canReorder(order.status) ? (
        <button type="button" className="button" onClick={() => setAsking('reorder')}>
          REORDER
        </button>
      ) : null}
      {offer.kind === 'offer' ? (
        <button type="button" className="button danger" onClick={() => setAsking('cancel')} aria-describedby="cancel-window">
          CANCEL ORDER
        </button>
      ) : null}
      {asking === 'reorder' ? <ReorderDialog order={order} onClose={() => setAsking(null)} /> : null}
      {asking === 'cancel' ? (
        <ConfirmDialog
          title="CANCEL THIS ORDER?"
          message={cancelConfirmText(order)}
          cancel="KEEP ORDER"
          confirm="CANCEL ORDER"
          destructive
          busy={busy ? { label: 'cancelling…' } : null}
          onCancel={() => setAsking(null)}
          onConfirm={confirmCancel}
        />
      ) : null}
    </>
  );
}

const refundOf = (order: OrderDetailAttributes) => ({ cardCents: Math.max(0, toCents(order.total) - toCents(order.refund_amount ?? 0)) });

/**
 * What the photographer reads about their order's actions: until when it may be cancelled (or
 * why not any more), the cancellation and its refund once made, and the colour-correction choice
 * while the order is open.
 */
export function OwnerNotes({ order, onChanged }: { order: OrderDetailAttributes; onChanged: () => void }) {
  const offer = cancellation(order, useNow(order.cancel_until));
  // The lab's answer to the last choice made here, shown until the order read again says the same.
  // Kept with the reading of the order it was made on: the next reading (the reload after the
  // change among them) is the truth again.
  const [saved, setSaved] = useState<{ value: ColorCorrection; on: OrderDetailAttributes } | null>(null);
  const shown = saved?.on === order ? saved.value : (order.color_correction ?? 'lab');

  const choose = (value: ColorCorrection) =>
    updateCheckout(order.guid, { type: 'color_correction', value }).then(
      (answer) => {
        setSaved({ value: answer.data.attributes.color_correction, on: order });
        toast.success(`Colour correction: ${colorCorrectionLabel(value)}.`);
        onChanged();
      },
      (err: unknown) => {
        logErrorDetails(err);
        toast.error(`The colour correction could not be changed: ${errorText(err)}`);
      },
    );

  return (
    <>
      {offer.kind === 'offer' ? (
        <p id="cancel-window" className="detail-note">
          You can cancel this order until {clockTime(offer.until)}, while the lab has not started it; the card is refunded in full.
        </p>
      ) : null}
      {offer.kind === 'closed' ? <p className="detail-note muted">{offer.reason}</p> : null}
      {order.status === 'cancelled' ? (
        <p className="detail-note cancelled-note" role="status">
          This order is cancelled.
          {order.refund_amount ? ` ${formatMoney(toCents(order.refund_amount))} was refunded to your card.` : ''}
        </p>
      ) : null}
      {canChooseColorCorrection(order.status) ? (
        <section className="detail-colour" aria-label="Colour correction">
          <ColourCorrectionChoice value={shown} disabled={false} onChange={choose} />
        </section>
      ) : null}
    </>
  );
}
