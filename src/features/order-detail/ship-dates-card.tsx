import type { OrderDetailAttributes } from '../../api/orders-detail.ts';
import { formatLabDay, formatShipDates } from '../../domain/ship-dates.ts';

/**
 * When the order ships and arrives (issue 34), and every delay with its reason: the photographer
 * hears of a late order here as in the mail, without asking. Nothing for an order without dates
 * (cancelled, or paid before the lab promised dates).
 */
export function ShipDatesCard({ order }: { order: Pick<OrderDetailAttributes, 'ship_dates' | 'delays' | 'status'> }) {
  const dates = order.ship_dates ?? null;
  const delays = order.delays ?? [];
  if (!dates || order.status === 'shipped') return null;
  const estimate = order.status === 'open';
  return (
    <section className={delays.length ? 'ship-dates delayed' : 'ship-dates'} aria-labelledby="ship-dates-heading" role="region">
      <h2 id="ship-dates-heading">{delays.length ? 'DELAYED: NEW SHIP DATE' : estimate ? 'SHIP DATE IF PAID TODAY' : 'SHIP DATE'}</h2>
      <p className="ship-dates-line">{formatShipDates(dates)}</p>
      {delays.length ? (
        <ol className="ship-delays" aria-label="Delays">
          {delays.map((d) => (
            <li key={d.declared_at}>
              {d.old_ship_by ? `Was ${formatLabDay(d.old_ship_by)}, now ` : 'Now '}
              {formatLabDay(d.new_ship_by)}: {d.reason}
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
