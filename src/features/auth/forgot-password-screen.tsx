import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from '../../ui/router.tsx';
import { errorLines } from '../../api/errors.ts';
import { forgotPassword } from '../../api/password.ts';
import { emailHasAccount } from '../../api/signup.ts';
import { ROUTES } from '../../app/routes.ts';
import { looksLikeEmail } from '../../domain/validation.ts';
import { ErrorLines } from '../../ui/error-lines.tsx';
import { useServerCheck } from '../../ui/use-server-check.ts';

export const EMAIL_UNKNOWN = 'Email does not exist. Please register as a new user.';

/** /forgot-password: SUBMIT only once the server knows the email (docs/accounts.md §2, §5). */
export function ForgotPasswordScreen() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [failure, setFailure] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const typed = email.trim();

  const known = useServerCheck(looksLikeEmail(typed) ? typed : null, emailHasAccount);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (known !== true) return;
    setBusy(true);
    try {
      await forgotPassword(typed);
      void navigate(`${ROUTES.forgotPasswordConfirmation}?email=${encodeURIComponent(typed)}`);
    } catch (err) {
      setFailure(errorLines(err));
      setBusy(false);
    }
  };

  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={(e) => void onSubmit(e)}>
        <h1>FORGOT PASSWORD</h1>
        <p className="muted">Enter the email of your account and we will mail you a token to reset your password.</p>
        <label>
          Email
          <input type="email" autoComplete="email" value={email} aria-invalid={known === false} onChange={(e) => setEmail(e.target.value)} />
        </label>
        {known === false ? (
          <p className="field-error" role="alert">
            {EMAIL_UNKNOWN} <Link to={ROUTES.signupStep1}>SIGN UP</Link>
          </p>
        ) : null}
        <ErrorLines lines={failure ?? []} />
        <button type="submit" className="button primary" disabled={known !== true || busy}>
          SUBMIT
        </button>
        <p className="auth-links">
          <Link to={ROUTES.login}>BACK TO SIGN IN</Link>
        </p>
      </form>
    </main>
  );
}
