import { useMemo } from 'react';
import { checkoutBox } from '../../client-rules/cart-review.ts';
import { CHECKOUT_NEEDS_CONNECTION } from '../../client-rules/checkout.ts';
import { orderMinimumMessage } from '../../domain/order-minimum.ts';
import { useOrderMinimumCents } from '../../offline/use-order-minimum.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import { usePendingChanges, type LocalLineItem, type LocalOrder } from '../../offline/order-store.ts';
import { checkoutBoxLines, checkoutBoxOrder } from './review-figures.ts';
import { FigureRows } from '../../ui/figure-rows.tsx';


/**
 * The checkout box (docs/orders.md §2): subtotal, discount, credit, boutique packaging, shipping and
 * total, added up from the lines on this device so a change shows before the lab confirms it.
 */
export function CheckoutBox({
  order,
  items,
  online,
  editable,
  onCheckout,
  onOrderMore,
  onClearCart,
}: {
  order: LocalOrder;
  items: readonly LocalLineItem[];
  online: boolean;
  editable: boolean;
  onCheckout(): void;
  onOrderMore(): void;
  onClearCart(): void;
}) {
  // Added up once per new reading of the cart, not on each of the review's renders: the rows of
  // a 1,000-item cart mount a slice per task, and each slice renders the screen again.
  const { rows, totals } = useMemo(() => checkoutBox(checkoutBoxOrder(order), checkoutBoxLines(items)), [order, items]);
  // The lab's minimum counts the SUBTOTAL: prints and finishing (src/domain/order-minimum.ts).
  const belowMinimum = orderMinimumMessage(totals.subtotal, useOrderMinimumCents());
  const checkout = () => (belowMinimum ? toast.error(belowMinimum) : onCheckout());
  // The status bar's count, of this order: one count of waiting changes on every screen.
  const waiting = usePendingChanges(order.guid);
  return (
    <aside className="checkout-box" aria-labelledby="checkout-box-title">
      <h2 id="checkout-box-title">ORDER SUMMARY</h2>
      <FigureRows rows={rows} />
      {belowMinimum ? (
        <p className="minimum-note" id="checkout-minimum" role="status">
          {belowMinimum}
        </p>
      ) : null}
      {waiting > 0 ? (
        <p className="muted">
          {waiting === 1 ? '1 change is' : `${waiting} changes are`} waiting to be sent; the lab confirms these figures when it has {waiting === 1 ? 'it' : 'them'}.
        </p>
      ) : null}
      {online ? null : (
        <p className="offline-note" id="checkout-offline" role="status">
          {CHECKOUT_NEEDS_CONNECTION}
        </p>
      )}
      <div className="checkout-actions">
        <button type="button" className="button primary" onClick={checkout} disabled={!online || !editable} aria-describedby={online ? (belowMinimum ? 'checkout-minimum' : undefined) : 'checkout-offline'}>
          CHECKOUT
        </button>
        {editable ? (
          <>
            <button type="button" className="button" onClick={onOrderMore}>
              ORDER MORE
            </button>
            <button type="button" className="button danger" onClick={onClearCart}>
              CLEAR CART
            </button>
          </>
        ) : null}
      </div>
    </aside>
  );
}
