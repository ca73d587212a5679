import { useState, type FormEvent } from 'react';
import { updateCheckout, type CheckoutOrder } from '../../api/checkout.ts';
import { BOUTIQUE_NOTE_MAX, boutiqueNote } from '../../client-rules/checkout.ts';
import { formatMoney } from '../../domain/money.ts';
import { BOUTIQUE_PACKAGING_CENTS } from '../../domain/pricing.ts';
import type { CheckoutActions } from './checkout-actions.ts';

/** BOUTIQUE PACKAGING: gift boxing with a note (at most 300, 'n/300', SAVE disabled while empty), added or removed. */
export function BoutiqueSection({ order, busy, actions }: { order: CheckoutOrder; busy: boolean; actions: CheckoutActions }) {
  const a = order.data.attributes;
  const [note, setNote] = useState('');
  const { counter, canSave } = boutiqueNote(note);
  if (!a.eligible_for_boutique_shipping && !a.boutique_shipping) return null;

  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!canSave || busy) return;
    void actions
      .change(() => updateCheckout(actions.orderGuid, { type: 'boutique_shipping', value: true, boutique_shipping_note: note.trim() }), 'Boutique packaging could not be added')
      .then((ok) => ok && setNote(''));
  };
  const remove = () => void actions.change(() => updateCheckout(actions.orderGuid, { type: 'boutique_shipping', value: false }), 'Boutique packaging could not be removed');

  return (
    <section className="checkout-section" aria-labelledby="checkout-boutique">
      <h2 id="checkout-boutique">BOUTIQUE PACKAGING</h2>
      {a.boutique_shipping ? (
        <>
          <p className="boutique-note">{a.boutique_shipping_note}</p>
          <button type="button" className="button" disabled={busy} onClick={remove}>
            REMOVE BOUTIQUE PACKAGING
          </button>
        </>
      ) : (
        <form onSubmit={save} className="boutique-form">
          <label>
            Packaging note (gift box and tissue with your note, {formatMoney(BOUTIQUE_PACKAGING_CENTS)} per order)
            <textarea rows={3} maxLength={BOUTIQUE_NOTE_MAX} value={note} aria-describedby="boutique-counter" onChange={(e) => setNote(e.target.value)} />
          </label>
          <div className="boutique-actions">
            <span id="boutique-counter" className="muted" aria-live="polite">
              {counter}
            </span>
            <button type="submit" className="button" disabled={!canSave || busy}>
              SAVE
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
