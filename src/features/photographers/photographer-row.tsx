import { memo, useCallback, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '../../ui/router.tsx';
import { errorText, logErrorDetails } from '../../api/errors.ts';
import { loginAsUser, updatePhotographer, type PhotographerAttributes, type PhotographerEdit } from '../../api/photographers.ts';
import { startActingAs } from '../../api/session.ts';
import { formatMoney, toCents } from '../../domain/money.ts';
import { creditValue, emailProblem, passwordProblem } from './photographer-edits.ts';
import { ROUTES } from '../../app/routes.ts';
import { routePath } from '../../domain/paths.ts';
import { toast } from '../../ui/toasts/toast-store.ts';

/** What an admin typed into a row and has not saved yet, by photographer and field. */
export type Drafts = Map<string, Partial<Record<'email' | 'password' | 'confirmation' | 'credit', string>>>;

/**
 * A field of a row that outlives the row: the list is windowed, so a row scrolled far away is
 * unmounted, and what was typed into it comes back with it.
 */
function useDraft(drafts: Drafts, guid: string, field: 'email' | 'password' | 'confirmation' | 'credit', initial: string): [string, (v: string) => void] {
  const [value, setValue] = useState(() => drafts.get(guid)?.[field] ?? initial);
  const set = useCallback(
    (v: string) => {
      setValue(v);
      drafts.set(guid, { ...drafts.get(guid), [field]: v });
    },
    [drafts, guid, field],
  );
  return [value, set];
}

/**
 * One photographer with the admin's tools (docs/orders.md §2): log in as, email, password with its
 * confirmation, APPROVED / NOT APPROVED, available credit; one field per update.
 */
export const PhotographerRow = memo(function PhotographerRow({
  photographer,
  onSaved,
  drafts,
  index,
  measure,
}: {
  photographer: PhotographerAttributes;
  onSaved: (p: PhotographerAttributes) => void;
  drafts: Drafts;
  /** Its place in the whole list (aria-rowindex: the header row is 1), and the window's measuring ref. */
  index: number;
  measure: (el: Element | null) => void;
}) {
  const p = photographer;
  const name = `${p.first_name} ${p.last_name}`.trim();
  const navigate = useNavigate();
  const [email, setEmail] = useDraft(drafts, p.guid, 'email', p.email);
  const [password, setPassword] = useDraft(drafts, p.guid, 'password', '');
  const [confirmation, setConfirmation] = useDraft(drafts, p.guid, 'confirmation', '');
  const [credit, setCredit] = useDraft(drafts, p.guid, 'credit', p.credit_available.toFixed(2));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = (edit: PhotographerEdit, done: string) => {
    setBusy(true);
    setProblem(null);
    updatePhotographer(p.guid, edit)
      .then(
        (answer) => {
          toast.success(done);
          onSaved(answer.data.attributes);
          if (edit.type === 'password') {
            setPassword('');
            setConfirmation('');
          }
        },
        (err: unknown) => {
          logErrorDetails(err);
          setProblem(errorText(err));
        },
      )
      .finally(() => setBusy(false));
  };
  const submit = (check: () => string | null, edit: () => PhotographerEdit, done: string) => (e: FormEvent) => {
    e.preventDefault();
    const why = check();
    if (why) setProblem(why);
    else save(edit(), done);
  };
  const logInAs = () => {
    setBusy(true);
    loginAsUser(p.email).then(
      (answer) => {
        startActingAs(answer);
        void navigate(ROUTES.labOrders);
      },
      (err: unknown) => {
        logErrorDetails(err);
        setBusy(false);
        toast.error(`Could not log in as ${name}: ${errorText(err)}`);
      },
    );
  };
  const checkedCredit = creditValue(credit);

  return (
    <tr ref={measure} data-index={index} aria-rowindex={index + 2}>
      <th scope="row" data-label="NAME">
        <Link to={routePath(ROUTES.photographer, { guid: p.guid })}>{name || p.email}</Link>
        <span className="muted">
          {p.order_count} orders · {formatMoney(toCents(p.credit_available))} credit
        </span>
        <button type="button" className="button" disabled={busy} onClick={logInAs}>
          LOG IN AS
        </button>
      </th>
      <td data-label="EMAIL">
        <form onSubmit={submit(() => emailProblem(email), () => ({ type: 'email', value: email.trim() }), `${name}'s email is changed.`)}>
          <input type="email" aria-label={`Email of ${name}`} value={email} onChange={(e) => setEmail(e.target.value)} />
          <button type="submit" className="button" disabled={busy || email.trim() === p.email}>
            SAVE EMAIL
          </button>
        </form>
      </td>
      <td data-label="BUSINESS NAME">{p.business_name}</td>
      <td data-label="PASSWORD">
        <input type="password" autoComplete="new-password" aria-label={`New password for ${name}`} value={password} onChange={(e) => setPassword(e.target.value)} />
      </td>
      <td data-label="PASSWORD CONFIRMATION">
        <form
          onSubmit={submit(
            () => passwordProblem(password, confirmation),
            () => ({ type: 'password', value: password, password_confirmation: confirmation }),
            `${name}'s password is changed.`,
          )}
        >
          <input type="password" autoComplete="new-password" aria-label={`Confirm the new password for ${name}`} value={confirmation} onChange={(e) => setConfirmation(e.target.value)} />
          <button type="submit" className="button" disabled={busy || password === ''}>
            SAVE PASSWORD
          </button>
        </form>
      </td>
      <td data-label="APPROVED">
        <select
          aria-label={`Approval of ${name}`}
          value={p.user_approved ? 'approved' : 'not_approved'}
          disabled={busy}
          onChange={(e) => {
            const value = e.target.value === 'approved' ? 'approved' : 'not_approved';
            save({ type: 'status', value }, `${name} is ${value === 'approved' ? 'approved' : 'not approved'}.`);
          }}
        >
          <option value="approved">APPROVED</option>
          <option value="not_approved">NOT APPROVED</option>
        </select>
      </td>
      <td data-label="CREDIT">
        <form
          onSubmit={submit(
            () => ('problem' in checkedCredit ? checkedCredit.problem : null),
            () => ({ type: 'credit', value: 'value' in checkedCredit ? checkedCredit.value : 0 }),
            `${name}'s credit is changed.`,
          )}
        >
          <input type="text" inputMode="decimal" aria-label={`Available credit of ${name}`} value={credit} onChange={(e) => setCredit(e.target.value)} />
          <button type="submit" className="button" disabled={busy || ('value' in checkedCredit && checkedCredit.value === p.credit_available)}>
            SAVE CREDIT
          </button>
        </form>
        {problem ? (
          <p className="form-error" role="alert">
            {problem}
          </p>
        ) : null}
      </td>
    </tr>
  );
});
