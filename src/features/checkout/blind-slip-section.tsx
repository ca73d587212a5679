import { Link } from '../../ui/router.tsx';
import type { Profile } from '../../api/account.ts';
import { updateCheckout, type CheckoutOrder } from '../../api/checkout.ts';
import { ROUTES } from '../../app/routes.ts';
import type { CheckoutActions } from './checkout-actions.ts';

/**
 * BLIND PACKING SLIP: the parcel goes with a slip in the studio's name (docs/lab-rules.md §9),
 * offered when the order may carry one (blind_slip_allowed, src/domain/packing-slip.ts).
 */
export function BlindSlipSection({ order, profile, busy, actions }: { order: CheckoutOrder; profile: Profile; busy: boolean; actions: CheckoutActions }) {
  const a = order.data.attributes;
  if (!a.blind_slip_allowed) return null;
  const businessName = profile.user.business_name;
  const choose = (on: boolean) =>
    void actions.change(() => updateCheckout(actions.orderGuid, { type: 'blind_slip', value: on }), on ? 'The blind packing slip could not be chosen' : 'The blind packing slip could not be removed');

  return (
    <section className="checkout-section" aria-labelledby="checkout-blind-slip">
      <h2 id="checkout-blind-slip">BLIND PACKING SLIP</h2>
      <label className="checkbox">
        <input type="checkbox" checked={a.blind_slip} disabled={busy || (!businessName && !a.blind_slip)} aria-describedby="blind-slip-note" onChange={(e) => choose(e.target.checked)} />
        Pack with my own packing slip
      </label>
      <p className="muted" id="blind-slip-note">
        {businessName
          ? `Your client sees ${businessName} with your logo and return address, and the prints in the parcel: no lab name and no prices.`
          : 'The slip shows your business name: add it on your account first.'}{' '}
        <Link to={ROUTES.account}>Logo and return address on your account</Link>
      </p>
    </section>
  );
}
