import { useState, type FormEvent } from 'react';
import { useNavigate } from '../../ui/router.tsx';
import { updateUserEmail } from '../../api/account.ts';
import { ApiError, errorLines } from '../../api/errors.ts';
import { clearSessionQuietly } from '../../api/session.ts';
import { ROUTES } from '../../app/routes.ts';
import { MIN_PASSWORD, looksLikeEmail } from '../../domain/validation.ts';
import { toast } from '../../ui/toasts/toast-store.ts';

export const EMAIL_ALREADY_ASSIGNED =
  'This email is already assigned to your account. Enter a new email above and your current password below to update your email address.';
export const INCORRECT_PASSWORD = 'Incorrect Password. Please enter correct password.';
export const EMAIL_UPDATED = "You've successfully updated your email address";
// The spec's green notice after an email change shows for 5 seconds.
const EMAIL_UPDATED_MS = 5_000;

/** CHANGE ACCOUNT EMAIL (docs/accounts.md §5): afterwards the user signs in again with the new email. */
export function ChangeEmailSection() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ready = looksLikeEmail(email) && password.length >= MIN_PASSWORD && !emailError;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await updateUserEmail(email.trim(), password);
      // Every session ended on the server: sign out here without the logged-out notice.
      clearSessionQuietly();
      toast.success(EMAIL_UPDATED, { durationMs: EMAIL_UPDATED_MS });
      void navigate(ROUTES.login, { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'server' && err.status === 422) {
        if (err.message.includes('already')) setEmailError(EMAIL_ALREADY_ASSIGNED);
        else setPasswordError(INCORRECT_PASSWORD);
      } else {
        toast.error(errorLines(err));
      }
      setBusy(false);
    }
  };

  return (
    <section className="account-section" aria-labelledby="change-email">
      <h2 id="change-email">CHANGE ACCOUNT EMAIL</h2>
      <form className="field-grid" onSubmit={(e) => void onSubmit(e)}>
        <label>
          New email
          <input
            type="email"
            autoComplete="email"
            value={email}
            aria-invalid={Boolean(emailError)}
            onChange={(e) => {
              setEmail(e.target.value);
              setEmailError(null);
            }}
          />
        </label>
        <label>
          Current password
          <input
            type="password"
            autoComplete="current-password"
            value={password}
            aria-invalid={Boolean(passwordError)}
            onChange={(e) => {
              setPassword(e.target.value);
              setPasswordError(null);
            }}
          />
        </label>
        <button type="submit" className="button primary" disabled={!ready || busy}>
          CHANGE LOGIN
        </button>
      </form>
      {emailError ? (
        <p className="field-error" role="alert">
          {emailError}
        </p>
      ) : null}
      {passwordError ? (
        <p className="field-error" role="alert">
          {passwordError}
        </p>
      ) : null}
    </section>
  );
}
