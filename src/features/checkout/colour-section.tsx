import { updateCheckout, type CheckoutOrder } from '../../api/checkout.ts';
import { colorCorrectionLabel } from '../../client-rules/order-actions-photographer.ts';
import { ColourCorrectionChoice } from '../../ui/colour-correction-choice.tsx';
import type { CheckoutActions } from './checkout-actions.ts';

/** COLOUR CORRECTION (issue 13): the lab corrects each photo's colour, or prints the files as they are. Saved at once, as every checkout choice. */
export function ColourSection({ order, busy, actions }: { order: CheckoutOrder; busy: boolean; actions: CheckoutActions }) {
  const value = order.data.attributes.color_correction ?? 'lab';
  return (
    <section className="checkout-section" aria-label="Colour correction">
      <ColourCorrectionChoice
        value={value}
        disabled={busy}
        onChange={(next) => actions.change(() => updateCheckout(actions.orderGuid, { type: 'color_correction', value: next }), `${colorCorrectionLabel(next)} could not be chosen`)}
      />
    </section>
  );
}
