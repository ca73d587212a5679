import { useEffect, useState } from 'react';
import type { PriceListPaper } from '../../api/catalogue.ts';
import { errorText } from '../../api/errors.ts';
import { useSession } from '../../api/session.ts';
import { isLabAdmin } from '../../api/stored-session.ts';
import { CATEGORY_NAMES, FINISHING_CATEGORIES, type FinishingCategory } from '../../domain/catalogue.ts';
import { formatMoney, toCents } from '../../domain/money.ts';
import { readPriceLists } from '../../offline/catalogue-copy.ts';
import { PaperProfilesSection } from './paper-profiles-section.tsx';

const money = (dollars: number) => formatMoney(toCents(dollars));

/** /price-lists: the lab's prices as one table per paper, with what each finishing starts at. */
export function PriceListsScreen() {
  const [papers, setPapers] = useState<PriceListPaper[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const admin = isLabAdmin(useSession());

  useEffect(() => {
    readPriceLists().then(
      ({ data }) => setPapers(data.data),
      (err: unknown) => setError(errorText(err)),
    );
  }, []);

  if (error) return <p role="alert">ERROR LOADING: {error}</p>;
  // The spec's loading words for this screen.
  if (!papers) return <p role="status">updating user...</p>;

  return (
    <section className="price-lists">
      <h1>PRICE LIST</h1>
      <p className="muted">Prices per print. Finishing columns show the lowest price for that finishing at each size. All orders are charged $10 for shipping.</p>
      {papers.map((paper) => {
        const categories = FINISHING_CATEGORIES.filter((c): c is Exclude<FinishingCategory, 'none'> =>
          paper.print_sizes.some((s) => s.finishing_from[c] !== undefined),
        );
        return (
          // Wider than a phone: the table scrolls in its own box, reachable by keyboard too.
          <div key={paper.guid} className="table-scroll" role="region" aria-label={`${paper.name} prices`} tabIndex={0}>
            <table className="price-table">
              <caption>{paper.name}</caption>
              <thead>
                <tr>
                  <th scope="col">SIZE</th>
                  <th scope="col">PRINT</th>
                  {categories.map((c) => (
                    <th scope="col" key={c}>
                      {CATEGORY_NAMES[c]} FROM
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {paper.print_sizes.map((s) => (
                  <tr key={s.guid}>
                    <th scope="row">{s.name}</th>
                    <td>{money(s.price)}</td>
                    {categories.map((c) => {
                      const from = s.finishing_from[c];
                      return <td key={c}>{from === undefined ? '—' : money(from)}</td>;
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      })}
      {admin ? <PaperProfilesSection /> : null}
    </section>
  );
}
