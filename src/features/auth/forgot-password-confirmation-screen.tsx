import { Link, useSearchParams } from '../../ui/router.tsx';
import { ROUTES } from '../../app/routes.ts';

export function ForgotPasswordConfirmationScreen() {
  const email = useSearchParams()[0].get('email');
  return (
    <main className="auth-page">
      <section className="auth-card">
        <h1>CHECK YOUR EMAIL</h1>
        <p>We sent you an email. You can reset your password by following the instructions in the email.</p>
        <p>
          <Link to={email ? `${ROUTES.resetPassword}?email=${encodeURIComponent(email)}` : ROUTES.resetPassword}>ENTER YOUR RESET TOKEN</Link>
        </p>
        <p>
          <Link to={ROUTES.login}>BACK TO SIGN IN</Link>
        </p>
      </section>
    </main>
  );
}
