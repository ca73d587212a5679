import type { OrderDetailAttributes, ShippingAddress } from '../../api/orders-detail.ts';
import { Fragment } from 'react';
import { allInCostFromWire } from '../../domain/all-in-cost.ts';
import { DROP_SHIP_TO_CLIENT, clientLines } from '../../client-rules/checkout.ts';
import { formatMoney, toCents } from '../../domain/money.ts';
import { colorCorrectionLabel } from '../../client-rules/order-actions-photographer.ts';
import { NO_BOUTIQUE_PACKAGING } from '../../client-rules/order-detail.ts';
import { orderCardDate } from '../../client-rules/order-list.ts';

const dollars = (amount: number | undefined) => formatMoney(toCents(amount ?? 0));

/** The address as lines: recipient, street, street 2, 'City, ST 12345', phone. */
export function addressLines(a: ShippingAddress): string[] {
  return [a.recipient, a.street, a.street_2, `${a.city}, ${a.state_province} ${a.zip}`, a.phone_number].filter((l): l is string => Boolean(l && l.trim()));
}

const SHIPPING_METHODS: Record<string, string> = { overnight: 'OVERNIGHT', two_day: 'TWO DAY' };


/** What everyone who may see the order sees (docs/orders.md §2 Order detail): status, dates, money, shipping, card, packaging. */
export function OrderSummary({ order }: { order: OrderDetailAttributes }) {
  // A local pickup already says LOCAL PICKUP; its method ('local_pickup') would say it twice.
  const method = order.shipping_method && !order.local_pickup ? (SHIPPING_METHODS[order.shipping_method] ?? order.shipping_method.replace(/_/g, ' ').toUpperCase()) : null;
  return (
    <section className="detail-summary" aria-labelledby="summary-heading" role="region">
      <h2 id="summary-heading">SUMMARY</h2>
      <dl className="detail-facts">
        <dt>STATUS</dt>
        <dd>
          <span className={`status status-${order.status}`}>{order.status.toUpperCase()}</span>
        </dd>
        <dt>UPDATED</dt>
        <dd>{orderCardDate(order.updated_at)}</dd>
        {order.paid_at ? (
          <>
            <dt>PAID</dt>
            <dd>{orderCardDate(order.paid_at)}</dd>
          </>
        ) : null}
        <dt>TRACKING</dt>
        <dd>
          {order.tracking_url ? (
            <a href={order.tracking_url} target="_blank" rel="noreferrer">
              TRACK THIS ORDER
            </a>
          ) : (
            'Not shipped yet'
          )}
        </dd>
        <dt>SHIPPING</dt>
        <dd>
          {order.local_pickup ? (
            'LOCAL PICKUP'
          ) : order.drop_ship_address ? (
            <address className="detail-address" aria-label="Client address">
              <span>{DROP_SHIP_TO_CLIENT}</span>
              {clientLines(order.drop_ship_address).map((line) => (
                <span key={line}>{line}</span>
              ))}
            </address>
          ) : order.shipping_address ? (
            <address className="detail-address">
              {addressLines(order.shipping_address).map((line) => (
                <span key={line}>{line}</span>
              ))}
            </address>
          ) : (
            'No shipping address yet'
          )}
          {method ? <span className={order.shipping_method === 'overnight' || order.shipping_method === 'two_day' ? 'rush' : undefined}> {method}</span> : null}
        </dd>
        <dt>CARD</dt>
        <dd>{order.selected_card_mask ?? (order.credit_applied > 0 && order.credit_applied >= order.total ? 'Paid with credit' : 'No card chosen')}</dd>
        <dt>PACKAGING</dt>
        <dd className="pre-wrap">{order.boutique_shipping ? `BOUTIQUE PACKAGING${order.boutique_shipping_note ? `: ${order.boutique_shipping_note}` : ''}` : NO_BOUTIQUE_PACKAGING}</dd>
        {order.color_correction ? (
          <>
            <dt>COLOUR CORRECTION</dt>
            <dd>{colorCorrectionLabel(order.color_correction)}</dd>
          </>
        ) : null}
        {order.notes ? (
          <>
            <dt>NOTES</dt>
            <dd className="pre-wrap">{order.notes}</dd>
          </>
        ) : null}
      </dl>
      <div role="group" aria-label="Order figures">
      <dl className="detail-figures">
        {allInCostFromWire(order).map((line) => (
          <Fragment key={line.label}>
            <dt>
              {line.label}
              {line.label === 'DISCOUNT' && order.discount_code ? ` (${order.discount_code.code})` : line.detail ? ` (${line.detail})` : ''}
            </dt>
            <dd className={line.label === 'TOTAL' ? 'detail-total' : undefined}>{line.cents === 0 ? dollars(0) : line.text}</dd>
          </Fragment>
        ))}
        {order.refund_amount ? (
          <>
            <dt>REFUNDED</dt>
            <dd>{dollars(order.refund_amount)}</dd>
          </>
        ) : null}
      </dl>
      </div>
    </section>
  );
}
