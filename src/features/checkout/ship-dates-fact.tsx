import { formatShipDates, type ShipDates } from '../../domain/ship-dates.ts';

/**
 * The final review's ship-date range (issue 34): the lab's dates if the order is paid today, from
 * its current turnaround and the chosen speed, as the server gives them.
 */
export function ShipDatesFact({ dates }: { dates: ShipDates | null | undefined }) {
  return (
    <div>
      <h2>SHIP DATE</h2>
      <p>{dates ? formatShipDates(dates) : 'The lab gives the date once it is paid.'}</p>
    </div>
  );
}
