import { useEffect, useRef } from 'react';
import { CLEAR_CART_CONFIRM } from '../../domain/cart-review.ts';

/**
 * The spec's CLEAR CART confirmation (orders.md §5) as a modal dialog: the page behind it is
 * inert, Escape or CANCEL keeps the cart, and focus starts on CANCEL so a stray Enter cannot
 * empty a cart.
 */
export function ClearCartDialog({ open, busy, onConfirm, onCancel }: { open: boolean; busy: boolean; onConfirm(): void; onCancel(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      cancelRef.current?.focus();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby="clear-cart-title"
      aria-describedby="clear-cart-text"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id="clear-cart-title">CLEAR CART</h2>
      <p id="clear-cart-text">{CLEAR_CART_CONFIRM}</p>
      <div className="confirm-actions">
        <button ref={cancelRef} type="button" className="button" onClick={onCancel} disabled={busy}>
          CANCEL
        </button>
        <button type="button" className="button danger" onClick={onConfirm} disabled={busy}>
          {busy ? 'CLEARING...' : 'YES, CLEAR CART'}
        </button>
      </div>
    </dialog>
  );
}
