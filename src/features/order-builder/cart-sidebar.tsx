import { Link } from '../../ui/router.tsx';
import { ADDING_TO_CART } from '../../domain/add-to-cart.ts';
import { formatMoney, type Cents } from '../../domain/money.ts';
import { NOTES_MAX } from '../../domain/notes.ts';
import { ROUTES } from '../../app/routes.ts';
import { routePath } from '../../domain/paths.ts';

/**
 * The right sidebar (docs/orders.md §2): notes, ADD TO CART or UPDATE, VIEW CART (n), CHECKOUT and
 * the SUBTOTAL of what the cart holds (changes still waiting to be sent included).
 */
export function CartSidebar(props: {
  orderGuid: string;
  note: string;
  onNote: (text: string) => void;
  noteFor: string;
  buttonLabel: string | null;
  onAdd: () => void;
  adding: boolean;
  refusal: string | null;
  cartCount: number;
  waitingCount: number;
  subtotalCents: Cents;
  selectionCents: Cents | null;
}) {
  return (
    <aside className="cart-sidebar" aria-label="Cart">
      <label className="notes-field">
        NOTES <span className="notes-for">({props.noteFor})</span>
        <textarea value={props.note} maxLength={NOTES_MAX} rows={5} onChange={(e) => props.onNote(e.target.value)} />
        <span className="notes-count">
          {props.note.length}/{NOTES_MAX}
        </span>
      </label>
      {props.selectionCents !== null ? <p className="selection-price">This selection: {formatMoney(props.selectionCents)}</p> : null}
      {props.refusal ? (
        <p className="builder-refusal" role="alert">
          {props.refusal}
        </p>
      ) : props.adding ? (
        <p role="status">{ADDING_TO_CART}</p>
      ) : props.buttonLabel ? (
        <button type="button" className="button primary" onClick={props.onAdd}>
          {props.buttonLabel}
        </button>
      ) : null}
      <Link className="button" to={routePath(ROUTES.cartReview, { id: props.orderGuid })}>
        VIEW CART ({props.cartCount})
      </Link>
      <Link className="button" to={routePath(ROUTES.checkoutDetails, { id: props.orderGuid })}>
        CHECKOUT
      </Link>
      <p className="subtotal">
        SUBTOTAL <strong>{formatMoney(props.subtotalCents)}</strong>
      </p>
      {props.waitingCount ? (
        <p className="waiting-note">
          {props.waitingCount === 1 ? '1 line item is' : `${props.waitingCount} line items are`} waiting to be sent to the lab.
        </p>
      ) : null}
    </aside>
  );
}
