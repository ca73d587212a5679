import { Link } from '../../ui/router.tsx';
import { ROUTES } from '../../app/routes.ts';

export function SignupConfirmationScreen() {
  return (
    <main className="auth-page">
      <section className="auth-card">
        <p className="step-marker">1 • 2 • 3</p>
        <h1>Congratulations! You can now sign in and place orders</h1>
        <p>
          <Link to={ROUTES.labOrders}>GO TO YOUR ORDERS</Link>
        </p>
      </section>
    </main>
  );
}
