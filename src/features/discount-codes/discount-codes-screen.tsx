import { useCallback, useEffect, useState } from 'react';
import { errorLines, errorText, logErrorDetails } from '../../api/errors.ts';
import { useSession } from '../../api/session.ts';
import { isLabAdmin } from '../../api/stored-session.ts';
import { changeDiscountCode, getDiscountCodes, type AdminDiscountCode, type CodeChange } from '../../api/discount-codes.ts';
import { formatMoney, toCents } from '../../domain/money.ts';
import { LoadStatus } from '../../ui/load-status.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { NewCodeFormSection } from './new-code-form.tsx';
import './discount-codes.css';

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'loaded'; codes: AdminDiscountCode[] };

const STATE_WORDS: Record<AdminDiscountCode['state'], string> = { active: 'ACTIVE', paused: 'PAUSED', expired: 'EXPIRED', used_up: 'USED UP' };
const worth = (c: AdminDiscountCode) => (c.kind === 'percent' ? `${c.percent ?? 0}% off` : `${formatMoney(toCents(c.amount ?? 0))} off`);

/** One code's row: what it is worth, its state, its uses, and PAUSE / RESUME / EXPIRE. */
function CodeRow({ code, onChanged }: { code: AdminDiscountCode; onChanged: (c: AdminDiscountCode) => void }) {
  const [busy, setBusy] = useState(false);
  const act = (change: CodeChange, done: string) => {
    setBusy(true);
    changeDiscountCode(code.code, change)
      .then(
        ({ data }) => {
          toast.success(done);
          onChanged(data);
        },
        (err: unknown) => toast.error(errorLines(err)),
      )
      .finally(() => setBusy(false));
  };
  return (
    <tr>
      <th scope="row">{code.code}</th>
      <td data-label="WORTH">{worth(code)}</td>
      <td data-label="STATE">{STATE_WORDS[code.state]}</td>
      <td data-label="LAST DAY">{code.last_day ?? 'no expiry'}</td>
      <td data-label="TIMES USED">
        {code.uses.times}
        {code.usage_limit !== null ? ` of ${code.usage_limit}` : ''}
      </td>
      <td data-label="PHOTOGRAPHERS">{code.uses.photographers}</td>
      <td data-label="MONEY GIVEN">{formatMoney(toCents(code.uses.money_given))}</td>
      <td data-label="ACTIONS" className="code-actions">
        {code.paused ? (
          <button type="button" className="button" disabled={busy} aria-label={`RESUME ${code.code}`} onClick={() => act({ paused: false }, `Discount code ${code.code} resumed.`)}>
            RESUME
          </button>
        ) : (
          <button type="button" className="button" disabled={busy} aria-label={`PAUSE ${code.code}`} onClick={() => act({ paused: true }, `Discount code ${code.code} paused.`)}>
            PAUSE
          </button>
        )}
        {code.state !== 'expired' ? (
          <button type="button" className="button danger" disabled={busy} aria-label={`EXPIRE ${code.code}`} onClick={() => act({ expires: 'now' }, `Discount code ${code.code} expired.`)}>
            EXPIRE
          </button>
        ) : null}
      </td>
    </tr>
  );
}

/** Discount codes (admins, issue 34): every code with its state and uses, a NEW CODE form, and PAUSE / RESUME / EXPIRE. */
export function DiscountCodesScreen() {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  // Anyone else opening the address gets the lab's refusal as the load's error, and no form.
  const admin = isLabAdmin(useSession());

  useEffect(() => {
    const ctrl = new AbortController();
    getDiscountCodes(ctrl.signal).then(
      ({ data }) => setLoad({ state: 'loaded', codes: data }),
      (err: unknown) => {
        if (ctrl.signal.aborted) return;
        logErrorDetails(err);
        setLoad({ state: 'error', message: errorText(err) });
      },
    );
    return () => ctrl.abort();
  }, []);

  // The lab's answer replaces the row (or adds it, in the list's order by code).
  const keep = useCallback((c: AdminDiscountCode) => {
    setLoad((l) => (l.state === 'loaded' ? { ...l, codes: [...l.codes.filter((d) => d.code !== c.code), c].sort((a, b) => a.code.localeCompare(b.code)) } : l));
  }, []);

  return (
    <section className="discount-codes">
      <h1>DISCOUNT CODES</h1>
      {admin ? <NewCodeFormSection onCreated={keep} /> : null}
      <LoadStatus load={load} />
      {load.state === 'loaded' ? (
        load.codes.length === 0 ? (
          <p className="empty">No discount codes yet.</p>
        ) : (
          <table className="code-table" aria-label="Discount codes">
            <thead>
              <tr>
                <th scope="col">CODE</th>
                <th scope="col">WORTH</th>
                <th scope="col">STATE</th>
                <th scope="col">LAST DAY</th>
                <th scope="col">TIMES USED</th>
                <th scope="col">PHOTOGRAPHERS</th>
                <th scope="col">MONEY GIVEN</th>
                <th scope="col">ACTIONS</th>
              </tr>
            </thead>
            <tbody>
              {load.codes.map((c) => (
                <CodeRow key={c.code} code={c} onChanged={keep} />
              ))}
            </tbody>
          </table>
        )
      ) : null}
    </section>
  );
}
