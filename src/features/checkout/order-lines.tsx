import type { CheckoutOrder } from '../../api/checkout.ts';
import { finishingText, flattenLineItem } from '../../client-rules/line-items.ts';
import { formatMoney } from '../../domain/money.ts';
import { truncateFileName } from '../../client-rules/photo-order.ts';

/** ORDER DETAILS: the order's line items as the lab holds them, read only. */
export function OrderLines({ order, orderGuid }: { order: CheckoutOrder; orderGuid: string }) {
  const lines = order.data.line_items.map((l) => flattenLineItem(l, orderGuid));
  return (
    <ul className="final-lines" aria-label="Order details">
      {lines.map((item) => (
        <li key={item.guid} className="final-line" aria-label={item.imageName}>
          <img className="final-thumb" src={item.photoUrl} alt={`${item.imageName}, cropped for print`} loading="lazy" />
          <div className="final-line-body">
            <h3 title={item.imageName}>{truncateFileName(item.imageName)}</h3>
            <p>
              {item.paper} · {item.printSize} · {item.printBorder}
            </p>
            <p>Finishing: {finishingText(item)}</p>
            {item.notes ? <p className="muted">Notes: {item.notes}</p> : null}
          </div>
          <p className="final-line-price">
            <span>QTY {item.quantity}</span>
            <strong>{formatMoney(item.totalPriceCents)}</strong>
          </p>
        </li>
      ))}
    </ul>
  );
}
