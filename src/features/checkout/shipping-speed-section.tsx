import { updateCheckout, type CheckoutOrder } from '../../api/checkout.ts';
import { formatMoney } from '../../domain/money.ts';
import { SHIPPING_SPEEDS, SHIPPING_SPEED_NAMES, TRANSIT_BUSINESS_DAYS, isShippingSpeed, type ShippingSpeed } from '../../domain/shipping-speeds.ts';
import type { ShippingPrices } from '../../offline/use-shipping-prices.ts';
import type { CheckoutActions } from './checkout-actions.ts';

const transit = (speed: ShippingSpeed) => {
  const [from, to] = TRANSIT_BUSINESS_DAYS[speed];
  return from === to ? `${from} business day${from === 1 ? '' : 's'} in transit` : `${from}–${to} business days in transit`;
};

/**
 * SHIPPING SPEED (issue 34): standard, two-day or overnight, each with the lab's price from its
 * catalogue; the order's SHIPPING figure is the lab's once the choice reaches it. Local pickup
 * ships nothing, so no speed is chosen while it is on.
 */
export function ShippingSpeedSection({ order, busy, actions, prices }: { order: CheckoutOrder; busy: boolean; actions: CheckoutActions; prices: ShippingPrices | null }) {
  const a = order.data.attributes;
  const chosen = isShippingSpeed(a.shipping_method) ? a.shipping_method : null;
  const choose = (speed: ShippingSpeed) => void actions.change(() => updateCheckout(actions.orderGuid, { type: 'shipping_method', value: speed }), 'The shipping speed could not be chosen');
  return (
    <section className="checkout-section" aria-labelledby="checkout-speed">
      <h2 id="checkout-speed">SHIPPING SPEED</h2>
      {a.local_pickup ? <p className="muted">Local pickup is on: nothing is shipped. Choose a speed to ship this order instead.</p> : null}
      <fieldset className="choice-list speed-list">
        <legend className="visually-hidden">Shipping speed</legend>
        {SHIPPING_SPEEDS.map((speed) => (
          <label key={speed} className="checkbox speed-choice">
            <input type="radio" name="shipping-speed" checked={chosen === speed} disabled={busy} onChange={() => choose(speed)} />
            <span className="speed-name">{SHIPPING_SPEED_NAMES[speed]}</span>
            {prices ? <span className="speed-price">{formatMoney(prices.speeds[speed])}</span> : null}
            <span className="muted speed-transit">{transit(speed)}</span>
          </label>
        ))}
      </fieldset>
    </section>
  );
}
