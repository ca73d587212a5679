import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from '../../ui/router.tsx';
import { logErrorDetails } from '../../api/errors.ts';
import { saveSession } from '../../api/session.ts';
import { emailHasAccount, signUp } from '../../api/signup.ts';
import { ROUTES } from '../../app/routes.ts';
import { MIN_PASSWORD, looksLikeEmail, passwordsOk } from '../../domain/validation.ts';
import { useServerCheck } from '../../ui/use-server-check.ts';
import { FormFailure } from './form-failure.tsx';
import { rememberReferralCode } from './referral-arrival.ts';

export const EMAIL_IN_USE = 'Email already in use. Please login or reset your password.';

/** /signup/1-of-3 and /refer/:id (docs/accounts.md §2): the account, signed in at once. */
export function SignupStep1Screen() {
  const { id: referralCode } = useParams();
  const navigate = useNavigate();
  const [form, setForm] = useState({ first_name: '', last_name: '', email: '', website: '', password: '', password_confirmation: '' });
  const [terms, setTerms] = useState(false);
  // The server said so at submit, for this email (a race with the live check).
  const [takenAtSubmit, setTakenAtSubmit] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);

  useEffect(() => {
    if (referralCode) rememberReferralCode(referralCode);
  }, [referralCode]);


  const field = (name: keyof typeof form) => ({
    name,
    value: form[name],
    onChange: (e: { target: { value: string } }) => {
      setForm((f) => ({ ...f, [name]: e.target.value }));
    },
  });

  const typedEmail = form.email.trim();
  const emailTaken = useServerCheck(looksLikeEmail(typedEmail) ? typedEmail : null, emailHasAccount) === true || takenAtSubmit === typedEmail;

  const ready =
    form.first_name.trim() !== '' &&
    form.last_name.trim() !== '' &&
    looksLikeEmail(form.email) &&
    !emailTaken &&
    passwordsOk(form.password, form.password_confirmation) &&
    terms;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready) return;
    setBusy(true);
    setFailure(null);
    try {
      saveSession(await signUp({ ...form, email: form.email.trim() }));
      void navigate(ROUTES.signupStep2);
    } catch (err) {
      logErrorDetails(err);
      if ((err as { className?: string }).className === 'EmailInUse') setTakenAtSubmit(typedEmail);
      else setFailure(err);
      setBusy(false);
    }
  };

  const mismatch = form.password_confirmation !== '' && form.password !== form.password_confirmation;
  return (
    <main className="auth-page">
      <form className="auth-card wide" onSubmit={(e) => void onSubmit(e)}>
        <p className="step-marker">
          <strong>1</strong> • 2 • 3
        </p>
        <h1>CREATE YOUR ACCOUNT</h1>
        {referralCode ? <p className="notice">You were referred by a fellow photographer (code {referralCode.toUpperCase()}).</p> : null}
        <div className="field-row">
          <label>
            First name
            <input autoComplete="given-name" required {...field('first_name')} />
          </label>
          <label>
            Last name
            <input autoComplete="family-name" required {...field('last_name')} />
          </label>
        </div>
        <label>
          Email
          <input type="email" autoComplete="email" required aria-invalid={emailTaken} aria-describedby="email-error" {...field('email')} />
        </label>
        {emailTaken ? (
          <p id="email-error" className="field-error" role="alert">
            {EMAIL_IN_USE} <Link to={ROUTES.login}>SIGN IN</Link> or <Link to={ROUTES.forgotPassword}>RESET</Link>
          </p>
        ) : null}
        <label>
          Website or social URL (optional)
          <input type="url" autoComplete="url" {...field('website')} />
        </label>
        <label>
          Password
          <input type="password" autoComplete="new-password" minLength={MIN_PASSWORD} required {...field('password')} />
        </label>
        <label>
          Confirm password
          <input type="password" autoComplete="new-password" required aria-invalid={mismatch} {...field('password_confirmation')} />
        </label>
        <p className={mismatch || (form.password !== '' && form.password.length < MIN_PASSWORD) ? 'field-error' : 'muted'}>
          Password fields must match and be at least 8 characters long.
        </p>
        <label className="checkbox">
          <input type="checkbox" checked={terms} onChange={(e) => setTerms(e.target.checked)} />I agree to the lab&apos;s terms of service
        </label>
        {failure ? <FormFailure error={failure} /> : null}
        <button type="submit" className="button primary" disabled={!ready || busy}>
          NEXT
        </button>
        <p className="auth-links">
          Already have an account? <Link to={ROUTES.login}>SIGN IN</Link>
        </p>
      </form>
    </main>
  );
}
