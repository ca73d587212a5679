import type { CheckoutOrder } from '../../api/checkout.ts';
import { summaryRows } from '../../domain/checkout.ts';

/** The lab's figures for the order (never the device's: CHECKOUT-CONTRACT.md). */
export function OrderFigures({ order }: { order: CheckoutOrder }) {
  return (
    <dl className="figure-rows">
      {summaryRows(order.data.attributes).map((row) => (
        <div key={row.label} className={`figure-row${row.label === 'TOTAL' ? ' is-total' : ''}`}>
          <dt>{row.label}</dt>
          <dd>{row.text}</dd>
        </div>
      ))}
    </dl>
  );
}
