import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from '../../ui/router.tsx';
import { updateCheckout } from '../../api/checkout.ts';
import { errorLines } from '../../api/errors.ts';
import { NEEDS_ADDRESS_AND_CARD } from '../../app/routes.ts';
import { checkoutReady } from '../../client-rules/checkout.ts';
import { detailsRedirect } from './checkout-redirects.ts';
import { toCents } from '../../domain/money.ts';
import { orderMinimumMessage } from '../../domain/order-minimum.ts';
import { ROUTES } from '../../app/routes.ts';
import { routePath } from '../../domain/paths.ts';
import { useOrderMinimumCents } from '../../offline/use-order-minimum.ts';
import { useShippingPrices } from '../../offline/use-shipping-prices.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import { AddressSection } from './address-section.tsx';
import { BlindSlipSection } from './blind-slip-section.tsx';
import { BoutiqueSection } from './boutique-section.tsx';
import { CardSection } from './card-section.tsx';
import type { CheckoutActions } from './checkout-actions.ts';
import { CheckoutPage } from './checkout-page.tsx';
import { ColourSection } from './colour-section.tsx';
import { DiscountCreditSection } from './discount-credit-section.tsx';
import { DropShipSection } from './drop-ship-section.tsx';
import { ShippingSpeedSection } from './shipping-speed-section.tsx';
import { readSaveCard, writeSaveCard } from './save-card-choice.ts';
import { OrderFigures } from './summary-panel.tsx';
import { useCheckoutOrder } from './use-checkout-order.ts';
import './checkout.css';

/**
 * /lab-orders/:id/checkout-details (docs/orders.md §2 Checkout details): shipping address, shipping
 * speed, drop-ship to the photographer's client, card, discount code, credit, boutique packaging,
 * blind packing slip, local pickup, and REVIEW & CONFIRM once the order is
 * ready (docs/orders.md §4). Every change goes to the lab at once and shows the lab's answer.
 */
export function CheckoutDetailsScreen() {
  const { id: orderGuid = '' } = useParams();
  const navigate = useNavigate();
  const { load, updating, change, changeProfile } = useCheckoutOrder(orderGuid);
  const [saveCard, setSaveCard] = useState(() => readSaveCard(orderGuid));
  const minimumCents = useOrderMinimumCents();
  const shippingPrices = useShippingPrices();

  const actions = useMemo<CheckoutActions>(() => {
    const settle = async (run: () => Promise<unknown>, failure: string | ((err: unknown) => void)) => {
      try {
        await run();
        return true;
      } catch (err) {
        if (typeof failure === 'function') failure(err);
        else toast.error([`${failure}:`, ...errorLines(err)]);
        return false;
      }
    };
    return {
      orderGuid,
      change: (call, failure) => settle(() => change(call), failure),
      profileChange: (call, failure) => settle(() => changeProfile(call), failure),
    };
  }, [orderGuid, change, changeProfile]);

  const order = load.state === 'ready' ? load.order : null;
  const redirect = order ? detailsRedirect({ status: order.data.attributes.status, lineItemCount: order.data.line_items.length }, orderGuid) : null;
  useEffect(() => {
    if (redirect) void navigate(redirect, { replace: true });
  }, [redirect, navigate]);

  const onSaveCard = useCallback(
    (save: boolean) => {
      setSaveCard(save);
      writeSaveCard(orderGuid, save);
    },
    [orderGuid],
  );

  if (load.state !== 'ready' || redirect) {
    return (
      <CheckoutPage name={null} title="CHECKOUT">
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

  const { order: o, profile } = load;
  const a = o.data.attributes;
  const ready = checkoutReady(a);
  // The lab's figures: its SUBTOTAL (prints and finishing) is what the minimum counts.
  const belowMinimum = orderMinimumMessage(toCents(a.subtotal), minimumCents);
  const reviewAndConfirm = () => {
    if (belowMinimum) {
      toast.error(belowMinimum);
      return;
    }
    if (!ready) {
      toast.error(NEEDS_ADDRESS_AND_CARD);
      return;
    }
    void navigate(routePath(ROUTES.checkoutFinal, { id: orderGuid }));
  };

  return (
    <CheckoutPage name={a.order_name} title="CHECKOUT" updating={updating}>
      <div className="checkout-layout">
        <div className="checkout-sections">
          <AddressSection order={o} profile={profile} busy={updating} actions={actions} />
          <ShippingSpeedSection order={o} busy={updating} actions={actions} prices={shippingPrices} />
          <DropShipSection order={o} busy={updating} actions={actions} prices={shippingPrices} />
          <CardSection order={o} profile={profile} busy={updating} actions={actions} saveCard={saveCard} onSaveCard={onSaveCard} />
          <DiscountCreditSection order={o} profile={profile} busy={updating} actions={actions} />
          <BoutiqueSection order={o} busy={updating} actions={actions} />
          <BlindSlipSection order={o} profile={profile} busy={updating} actions={actions} />
          <ColourSection order={o} busy={updating} actions={actions} />
        </div>
        <aside className="checkout-summary" aria-labelledby="checkout-summary">
          <h2 id="checkout-summary">ORDER SUMMARY</h2>
          <OrderFigures order={o} />
          <label className="checkbox">
            <input
              type="checkbox"
              checked={a.local_pickup}
              disabled={updating}
              onChange={(e) => void actions.change(() => updateCheckout(orderGuid, { type: 'local_pickup', value: e.target.checked }), 'Local pickup could not be changed')}
            />
            LOCAL PICKUP (no shipping)
          </label>
          {belowMinimum ? (
            <p className="minimum-note" id="checkout-minimum" role="status">
              {belowMinimum}
            </p>
          ) : null}
          {ready ? null : (
            <p className="muted" id="checkout-not-ready">
              Choose a shipping address (or your client's, or local pickup) and a card, or apply credit that covers the whole order.
            </p>
          )}
          <button type="button" className="button primary" onClick={reviewAndConfirm} aria-describedby={[belowMinimum ? 'checkout-minimum' : '', ready ? '' : 'checkout-not-ready'].filter(Boolean).join(' ') || undefined}>
            REVIEW &amp; CONFIRM
          </button>
        </aside>
      </div>
    </CheckoutPage>
  );
}
