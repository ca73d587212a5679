import type { CheckoutOrder } from '../../api/checkout.ts';
import { summaryRows } from '../../client-rules/checkout.ts';
import { FigureRows } from '../../ui/figure-rows.tsx';

/** The lab's figures for the order (never the device's: docs/lab-rules.md §3). */
export function OrderFigures({ order }: { order: CheckoutOrder }) {
  return <FigureRows rows={summaryRows(order.data.attributes)} />;
}
