import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useParams } from '../../ui/router.tsx';
import { getPhotographerCredit, type AccountUser, type ReferralRow } from '../../api/account.ts';
import { errorLines, errorText } from '../../api/errors.ts';
import { useSession } from '../../api/session.ts';
import { referralCodeExists, updateNewUser } from '../../api/signup.ts';
import { toCsv } from '../../domain/csv.ts';
import { formatMoney, toCents } from '../../domain/money.ts';
import { ROUTES } from '../../app/routes.ts';
import { routePath } from '../../domain/paths.ts';
import { ReferralCodeField, useReferralCodeCheck } from '../../ui/referral-code-field.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { OwnReferralCode } from './own-referral-code.tsx';

/** /credit (own) and /photographers/:guid (admins, or one's own): credit and referrals (docs/accounts.md §2). */
export function CreditScreen() {
  const { guid: routeGuid } = useParams();
  const ownGuid = useSession((s) => s.session?.guid ?? '');
  const guid = routeGuid ?? ownGuid;
  // A page per photographer: moving between photographers starts afresh, so a late answer for
  // the previous one cannot show under the next.
  return <PhotographerCredit key={guid} guid={guid} />;
}

function PhotographerCredit({ guid }: { guid: string }) {
  const [data, setData] = useState<{ user: AccountUser; referrals: ReferralRow[] } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    getPhotographerCredit(guid).then(
      (res) => setData(res.data),
      (err: unknown) => setError(errorText(err)),
    );
  }, [guid]);
  useEffect(load, [load]);

  if (error) return <p role="alert">ERROR LOADING: {error}</p>;
  if (!data) return <p role="status">loading</p>;
  const { user, referrals } = data;
  const referralUrl = user.referral_code ? `${window.location.origin}${routePath(ROUTES.refer, { id: user.referral_code })}` : '';
  const csvHref = `data:text/csv;charset=utf-8,${encodeURIComponent(
    toCsv(['Name', 'Business Name', 'E-Mail', 'Credit Earned'], referrals.map((r) => [r.name, r.business_name, r.email, r.credit_earned.toFixed(2)])),
  )}`;

  return (
    <div className="credit">
      <h1>CREDIT</h1>
      <section className="account-section">
        <dl className="credit-figures">
          <div>
            <dt>CREDIT</dt>
            <dd>{formatMoney(toCents(user.credit_available))}</dd>
          </div>
          <div>
            <dt>PHOTOGRAPHERS REFERRED</dt>
            <dd>{user.referred_users}</dd>
          </div>
          <div>
            <dt>CURRENTLY REFERRED BY</dt>
            <dd>{user.referred_by_email ?? 'NO REFERRAL PHOTOGRAPHER'}</dd>
          </div>
        </dl>
      </section>

      {user.referred_by_email ? null : <SubmitReferrer onDone={load} />}

      <section className="account-section" aria-labelledby="own-code">
        <h2 id="own-code">YOUR REFERRAL CODE</h2>
        <OwnReferralCode guid={user.guid} current={user.referral_code ?? ''} onSaved={load} />
        <div className="field-grid">
          <label>
            Referral URL
            <input readOnly value={referralUrl} />
          </label>
          <button
            type="button"
            className="button"
            disabled={!referralUrl}
            onClick={() =>
              void navigator.clipboard.writeText(referralUrl).then(
                () => toast.success('Link copied.'),
                () => toast.error('Could not copy the link. Select it and copy it by hand.'),
              )
            }
          >
            COPY LINK
          </button>
        </div>
      </section>

      <section className="account-section" aria-labelledby="report">
        <h2 id="report">REFERRAL REPORT</h2>
        <table className="referral-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Business Name</th>
              <th scope="col">E-Mail</th>
              <th scope="col">Credit Earned</th>
            </tr>
          </thead>
          <tbody>
            {referrals.length ? (
              referrals.map((r) => (
                <tr key={r.email}>
                  <td>{r.name}</td>
                  <td>{r.business_name}</td>
                  <td>{r.email}</td>
                  <td>{formatMoney(toCents(r.credit_earned))}</td>
                </tr>
              ))
            ) : (
              <tr>
                <td colSpan={4} className="muted">
                  No referred photographers yet. Share your referral link.
                </td>
              </tr>
            )}
          </tbody>
        </table>
        <p>
          <a href={csvHref} download="referral-report.csv">
            DOWNLOAD REFERRAL REPORT
          </a>
        </p>
      </section>
    </div>
  );
}

/** 'Were you referred by another photographer?': shown only while no referrer is recorded. */
function SubmitReferrer({ onDone }: { onDone: () => void }) {
  const [code, setCode] = useState('');
  const exists = useReferralCodeCheck(code, referralCodeExists);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await updateNewUser({ code: code.trim() });
      onDone();
    } catch (err) {
      toast.error(errorLines(err));
      setBusy(false);
    }
  };

  return (
    <section className="account-section" aria-labelledby="submit-referrer">
      <h2 id="submit-referrer">Were you referred by another photographer?</h2>
      <form onSubmit={(e) => void onSubmit(e)} className="field-grid">
        <ReferralCodeField value={code} onChange={setCode} exists={exists} />
        <button type="submit" className="button primary" disabled={exists !== true || busy}>
          SUBMIT
        </button>
      </form>
    </section>
  );
}
