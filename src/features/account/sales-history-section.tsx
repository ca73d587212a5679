import { useEffect, useState } from 'react';
import { generateTaxReport, getProfile, type Profile } from '../../api/account.ts';
import { errorLines } from '../../api/errors.ts';
import { toast } from '../../ui/toasts/toast-store.ts';

// While a report is being made, the page asks again this often.
const POLL_MS = 2_000;

/** SALES HISTORY: per year, GENERATE the report (a background job), then download it. */
export function SalesHistorySection({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const [asking, setAsking] = useState<number | null>(null);
  const generating = profile.tax_reports.some((r) => r.status === 'generating');

  useEffect(() => {
    if (!generating) return;
    const timer = window.setInterval(() => {
      getProfile().then(onSaved, () => {
        // Offline for a moment: the next tick asks again.
      });
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [generating, onSaved]);

  const generate = async (year: number) => {
    setAsking(year);
    try {
      await generateTaxReport(year);
      onSaved(await getProfile());
    } catch (err) {
      toast.error(errorLines(err));
    } finally {
      setAsking(null);
    }
  };

  return (
    <section className="account-section" aria-labelledby="sales-history">
      <h2 id="sales-history">SALES HISTORY</h2>
      <table className="referral-table">
        <thead>
          <tr>
            <th scope="col">Year</th>
            <th scope="col">Report</th>
          </tr>
        </thead>
        <tbody>
          {profile.tax_reports.map((r) => (
            <tr key={r.year}>
              <th scope="row">{r.year}</th>
              <td className="report-actions">
                {r.status === 'failed' ? <span className="field-error">The report could not be made.</span> : null}
                {r.status === 'generating' ? (
                  <span role="status">generating...</span>
                ) : (
                  <button type="button" className="link" disabled={asking !== null} onClick={() => void generate(r.year)} aria-label={`GENERATE ${r.year}`}>
                    {r.status === 'ready' ? 'GENERATE AGAIN' : 'GENERATE'}
                  </button>
                )}
                {r.status === 'ready' && r.pdf_link && r.csv_link ? (
                  <>
                    <a href={r.pdf_link}>DOWNLOAD {r.year} PDF</a>
                    <a href={r.csv_link}>DOWNLOAD {r.year} CSV</a>
                  </>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
