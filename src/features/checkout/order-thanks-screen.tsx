import { Link } from '../../ui/router.tsx';
import { ROUTES } from '../../app/routes.ts';

export function OrderThanksScreen() {
  return (
    <section className="thanks">
      <h1>Thank you for your order! We'll get started on it right away. You should receive a confirmation email and receipt shortly.</h1>
      <Link className="button" to={ROUTES.labOrders}>
        RETURN HOME
      </Link>
    </section>
  );
}
