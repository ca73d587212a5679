import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from '../../ui/router.tsx';
import { errorLines } from '../../api/errors.ts';
import { resetPassword, resetTokenValid } from '../../api/password.ts';
import { saveSession } from '../../api/session.ts';
import { ROUTES } from '../../app/routes.ts';
import { PASSWORD_RULE } from '../../domain/password-rule.ts';
import { MIN_PASSWORD, looksLikeEmail, passwordsOk } from '../../domain/validation.ts';
import { ErrorLines } from '../../ui/error-lines.tsx';
import { useServerCheck } from '../../ui/use-server-check.ts';

export const TOKEN_INVALID = 'Reset token either expired or is not valid for this email address.';
const TOKEN_LENGTH = 6;

/** The token as typed: letters, digits and spaces only; checked once 6 characters without spaces. */
const cleanToken = (raw: string) => raw.replace(/[^A-Za-z0-9 ]/g, '');
const compactToken = (raw: string) => raw.replace(/\s+/g, '');
/** Checks 'email|token' (one value, so the answer is tied to both as typed). */
const askToken = (key: string) => {
  const [email = '', token = ''] = key.split('|');
  return resetTokenValid(email, token);
};

/** /reset-password: email, reset token, new password twice, SAVE → signed in at / (docs/accounts.md §2). */
export function ResetPasswordScreen() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [token, setToken] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [failure, setFailure] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);

  const compact = compactToken(token);
  const key = `${email.trim()}|${compact}`;
  const checkable = looksLikeEmail(email) && compact.length === TOKEN_LENGTH;

  // Debounced like every check: each wrong token counts against the 5 tries, so half-typed
  // corrections must not spend them.
  const tokenValid = useServerCheck(checkable ? key : null, askToken);
  const passwordsMatch = passwordsOk(password, confirmation);
  const ready = tokenValid === true && passwordsMatch;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready) return;
    setBusy(true);
    setFailure(null);
    try {
      saveSession(await resetPassword({ email: email.trim(), challenge_token: compact, password, password_confirmation: confirmation }));
      void navigate(ROUTES.home);
    } catch (err) {
      setFailure(errorLines(err));
      setBusy(false);
    }
  };

  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={(e) => void onSubmit(e)}>
        <h1>RESET PASSWORD</h1>
        <label>
          Email
          <input type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          Reset token
          <input value={token} autoComplete="one-time-code" aria-invalid={tokenValid === false} onChange={(e) => setToken(cleanToken(e.target.value))} />
        </label>
        {tokenValid === false ? (
          <p className="field-error" role="alert">
            {TOKEN_INVALID}
          </p>
        ) : null}
        {tokenValid === true ? (
          <p className="field-ok" role="status">
            <span aria-hidden="true">✓ </span>Reset token accepted.
          </p>
        ) : null}
        <label>
          Password
          <input type="password" autoComplete="new-password" minLength={MIN_PASSWORD} value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <label>
          Confirm password
          <input type="password" autoComplete="new-password" value={confirmation} onChange={(e) => setConfirmation(e.target.value)} />
        </label>
        <p className={(password || confirmation) && !passwordsMatch ? 'field-error' : 'muted'}>{PASSWORD_RULE}</p>
        <ErrorLines lines={failure ?? []} />
        <button type="submit" className="button primary" disabled={!ready || busy}>
          SAVE
        </button>
        <p className="auth-links">
          <Link to={ROUTES.forgotPassword}>SEND A NEW TOKEN</Link> · <Link to={ROUTES.login}>BACK TO SIGN IN</Link>
        </p>
      </form>
    </main>
  );
}
