import { formatMoney, type Cents } from './money.ts';

/**
 * The lab's order minimum (issue 34), as labs set one: a catalogue setting (`order_minimum`,
 * 0 or absent = none) that the cart and checkout show and the server enforces with the same words.
 *
 * What counts towards it is the merchandise: the prints and their finishing (and custom albums),
 * the order's SUBTOTAL, before discount, credit, boutique packaging and shipping. That is how
 * labs count it, and it means a discount code or credit never pushes an order under the minimum.
 */

/** '$18' for whole dollars, '$4.20' otherwise: the lab's minimum reads as labs write it. */
const shortMoney = (cents: Cents): string => (cents % 100 === 0 ? formatMoney(cents).slice(0, -3) : formatMoney(cents));

/** What is missing to reach the minimum: 0 when there is no minimum or the merchandise reaches it. */
export function orderMinimumShortfall(merchandiseCents: Cents, minimumCents: Cents): Cents {
  return minimumCents > 0 && merchandiseCents < minimumCents ? minimumCents - merchandiseCents : 0;
}

/** "Add $4.20 to reach the lab's $18 minimum", or null when the order reaches the minimum. */
export function orderMinimumMessage(merchandiseCents: Cents, minimumCents: Cents): string | null {
  const missing = orderMinimumShortfall(merchandiseCents, minimumCents);
  return missing > 0 ? `Add ${formatMoney(missing)} to reach the lab's ${shortMoney(minimumCents)} minimum` : null;
}
