import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from '../../ui/router.tsx';
import { placeOrder } from '../../api/checkout.ts';
import { ApiError, NO_RESPONSE_MESSAGE, errorLines } from '../../api/errors.ts';
import { newId } from '../../client-rules/ids.ts';
import { colorCorrectionLabel } from '../../client-rules/order-actions-photographer.ts';
import { NONE_SELECTED, NO_BOUTIQUE_PACKAGING, canPlaceOrder, discountAndCreditCents, shippingToLines } from '../../client-rules/checkout.ts';
import { finalGuard } from './checkout-redirects.ts';
import { formatMoney, toCents } from '../../domain/money.ts';
import { ROUTES } from '../../app/routes.ts';
import { routePath } from '../../domain/paths.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import { CheckoutPage } from './checkout-page.tsx';
import { keepOnDevice, useWaitingLineItems } from './keep-on-device.ts';
import { OrderLines } from './order-lines.tsx';
import { ShipDatesFact } from './ship-dates-fact.tsx';
import { readSaveCard, writeSaveCard } from './save-card-choice.ts';
import { OrderFigures } from './summary-panel.tsx';
import { useCheckoutOrder } from './use-checkout-order.ts';
import './checkout.css';

type Failure = { kind: 'declined' | 'other'; message: string } | null;

/**
 * /lab-orders/:id/checkout-final/ (docs/orders.md §2 Checkout final): the four guards, what will be
 * charged and where it goes, and PLACE ORDER. One press is one attempt with one Idempotency-Key:
 * a second press while it runs does nothing, and a retry after no answer sends the same key, so
 * the lab charges once (docs/lab-rules.md §3).
 */
export function CheckoutFinalScreen() {
  const { id: orderGuid = '' } = useParams();
  const navigate = useNavigate();
  const { load, online, reload } = useCheckoutOrder(orderGuid);
  const waiting = useWaitingLineItems(orderGuid);
  const placingNow = useRef(false);
  const attemptKey = useRef<string | null>(null);
  const [placing, setPlacing] = useState(false);
  const [failure, setFailure] = useState<Failure>(null);

  const order = load.state === 'ready' ? load.order : null;
  const a = order?.data.attributes;
  const guard = order && a && !placing ? finalGuard({ ...a, lineItemCount: order.data.line_items.length }, orderGuid) : null;
  useEffect(() => {
    if (guard) void navigate(guard, { replace: true });
  }, [guard, navigate]);

  // Changes to the cart still on their way from this device: the lab's order lacks them until sent.
  const hadWaiting = useRef((waiting ?? 0) > 0);
  useEffect(() => {
    if (waiting !== null && waiting > 0) hadWaiting.current = true;
    else if (hadWaiting.current) {
      hadWaiting.current = false;
      reload().catch(() => undefined);
    }
  }, [waiting, reload]);

  if (load.state !== 'ready' || !a || !order || guard) {
    return (
      <CheckoutPage name={null} title="REVIEW & CONFIRM">
        {load.state === 'failed' ? (
          <p role="alert" className="load-error">
            {load.message}
          </p>
        ) : (
          <p role="status">loading...</p>
        )}
      </CheckoutPage>
    );
  }

  // Not before the device has counted the changes still on their way (null until then).
  const allowed = canPlaceOrder(a) && online && waiting === 0;
  const place = async () => {
    if (placingNow.current || !allowed) return;
    placingNow.current = true;
    setPlacing(true);
    setFailure(null);
    attemptKey.current ??= newId();
    try {
      const paid = await placeOrder(orderGuid, readSaveCard(orderGuid), attemptKey.current);
      attemptKey.current = null;
      writeSaveCard(orderGuid, false);
      await keepOnDevice(paid);
      void navigate(ROUTES.orderThanks, { replace: true });
      return;
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'network') {
        // No answer: the charge may or may not have happened. The next press repeats this
        // attempt with the same key, and the lab answers it without charging twice.
        setFailure({ kind: 'other', message: NO_RESPONSE_MESSAGE });
      } else {
        attemptKey.current = null;
        if (err instanceof ApiError && err.status === 402) setFailure({ kind: 'declined', message: err.message });
        else {
          setFailure({ kind: 'other', message: err instanceof ApiError && err.kind === 'server' ? err.message : errorLines(err).join(' ') });
          toast.error(errorLines(err));
          // The order may have changed (paid in another tab, emptied): read it, the guards decide.
          reload().catch(() => undefined);
        }
      }
    } finally {
      placingNow.current = false;
      setPlacing(false);
    }
  };

  const details = routePath(ROUTES.checkoutDetails, { id: orderGuid });
  return (
    <CheckoutPage
      name={a.order_name}
      title="REVIEW & CONFIRM"
      actions={
        <Link className="button" to={details} aria-label="EDIT checkout details">
          EDIT
        </Link>
      }
    >
      <div className="checkout-layout final-layout">
        <div className="checkout-sections">
          <section className="checkout-section final-facts" aria-label="Where it goes and how it is paid">
            <div>
              <h2>SHIPPING TO</h2>
              <p className="final-address">
                {shippingToLines(a).map((line, i) => (
                  <span key={i}>{line}</span>
                ))}
              </p>
            </div>
            <ShipDatesFact dates={a.ship_dates} />
            <div>
              <h2>CREDIT CARD</h2>
              <p>{a.selected_card_to_use ? (a.selected_card_mask ?? 'Card selected') : NONE_SELECTED}</p>
            </div>
            <div>
              <h2>DISCOUNT AND CREDIT APPLIED</h2>
              <p>{formatMoney(discountAndCreditCents(a))}</p>
            </div>
            <div>
              <h2>BOUTIQUE PACKAGING</h2>
              <p className="boutique-note">{a.boutique_shipping ? a.boutique_shipping_note : NO_BOUTIQUE_PACKAGING}</p>
            </div>
            {a.blind_slip ? (
              <div>
                <h2>PACKING SLIP</h2>
                <p>Yours (blind): your business name, logo and return address; no lab name and no prices.</p>
              </div>
            ) : null}
            <div>
              <h2>COLOUR CORRECTION</h2>
              <p>{colorCorrectionLabel(a.color_correction)}</p>
            </div>
          </section>
          <section className="checkout-section" aria-labelledby="final-details">
            <h2 id="final-details">ORDER DETAILS</h2>
            <OrderLines order={order} orderGuid={orderGuid} />
          </section>
        </div>
        <aside className="checkout-summary" aria-labelledby="final-total">
          <h2 id="final-total" className="final-total">
            TOTAL <span>{formatMoney(toCents(a.total))}</span>
          </h2>
          <OrderFigures order={order} />
          {failure ? (
            <div className="form-error" role="alert">
              <p>{failure.kind === 'declined' ? `Your card was not charged: ${failure.message}` : failure.message}</p>
              {failure.kind === 'declined' ? (
                <Link className="button" to={details}>
                  CHOOSE ANOTHER CARD
                </Link>
              ) : null}
            </div>
          ) : null}
          {!online ? <p className="offline-note">Placing the order needs a connection: it waits until the lab can be reached.</p> : null}
          {waiting !== null && waiting > 0 ? (
            <p className="muted" role="status">
              Your latest cart changes are still being sent; PLACE ORDER waits for them.
            </p>
          ) : null}
          <button type="button" className="button primary place-order" disabled={!allowed || placing} onClick={() => void place()}>
            {placing ? 'PLACING ORDER...' : 'PLACE ORDER'}
          </button>
        </aside>
      </div>
    </CheckoutPage>
  );
}
