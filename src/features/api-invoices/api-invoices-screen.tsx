import { useEffect, useState } from 'react';
import { errorText, logErrorDetails } from '../../api/errors.ts';
import { getApiInvoices, type ApiInvoiceMonth } from '../../api/photographers.ts';
import { formatMoney, toCents } from '../../domain/money.ts';
import { LoadStatus } from '../../ui/load-status.tsx';
import './api-invoices.css';

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'loaded'; months: ApiInvoiceMonth[] };

const MONTH = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
/** 'YYYY-MM' as 'NOVEMBER 2026'. */
const monthName = (month: string) => {
  const date = new Date(`${month}-01T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? month : MONTH.format(date).toUpperCase();
};

/** API invoices (docs/orders.md §2; admins and API vendors): the paid API orders by month with totals. */
export function ApiInvoicesScreen() {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  useEffect(() => {
    const ctrl = new AbortController();
    getApiInvoices(ctrl.signal).then(
      (answer) => setLoad({ state: 'loaded', months: answer.data }),
      (err: unknown) => {
        if (ctrl.signal.aborted) return;
        logErrorDetails(err);
        setLoad({ state: 'error', message: errorText(err) });
      },
    );
    return () => ctrl.abort();
  }, []);

  return (
    <section className="api-invoices">
      <h1>API INVOICES</h1>
      <LoadStatus load={load} />
      {load.state === 'loaded' && load.months.length === 0 ? <p className="empty">No orders came through the API yet.</p> : null}
      {load.state === 'loaded' && load.months.length > 0 ? (
        <table className="invoice-table">
          <thead>
            <tr>
              <th scope="col">MONTH</th>
              <th scope="col">ORDERS</th>
              <th scope="col">TOTAL</th>
            </tr>
          </thead>
          <tbody>
            {load.months.map((m) => (
              <tr key={m.month}>
                <th scope="row">{monthName(m.month)}</th>
                <td>{m.orders}</td>
                <td>{formatMoney(toCents(m.total))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
