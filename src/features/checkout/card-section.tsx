import type { Profile } from '../../api/account.ts';
import { cardCalls } from '../../api/card-calls.ts';
import { createOrderCard, updateCheckout, type CheckoutOrder } from '../../api/checkout.ts';
import { errorLines } from '../../api/errors.ts';
import { CardEntry } from '../../ui/card-field/card-entry.tsx';
import type { CheckoutActions } from './checkout-actions.ts';

/**
 * PAYMENT: the photographer's saved cards (choosing one selects it for this order), a new card
 * through the provider's field, and SAVE CARD FOR FUTURE USE while a new card is the one selected
 * (a card typed here is otherwise used for this order only).
 */
export function CardSection(props: {
  order: CheckoutOrder;
  profile: Profile;
  busy: boolean;
  actions: CheckoutActions;
  saveCard: boolean;
  onSaveCard: (save: boolean) => void;
}) {
  const { order, profile, busy, actions, saveCard, onSaveCard } = props;
  const a = order.data.attributes;
  const guid = actions.orderGuid;
  const selected = a.selected_card_to_use;
  const newCardSelected = Boolean(selected) && !a.used_saved_card && !profile.cards.data.some((c) => c.id === selected);

  const useNewCard = (tokenId: string) =>
    new Promise<void>((resolve, reject) => {
      void actions
        .profileChange(() => createOrderCard(tokenId, guid), 'The card could not be used')
        .then((ok) => (ok ? resolve() : reject(new Error('not saved'))));
    });

  return (
    <section className="checkout-section" aria-labelledby="checkout-card">
      <h2 id="checkout-card">PAYMENT</h2>
      <fieldset className="choice-list">
        <legend>Card for this order</legend>
        {profile.cards.data.map((c) => (
          <label key={c.id} className="checkbox">
            <input
              type="radio"
              name="order-card"
              checked={selected === c.id}
              disabled={busy}
              onChange={() => void actions.change(() => updateCheckout(guid, { type: 'used_saved_card', value: c.id }), 'The card could not be chosen')}
            />
            <span>{c.masked_card}</span>
          </label>
        ))}
        {newCardSelected ? (
          <label className="checkbox">
            <input type="radio" name="order-card" checked readOnly disabled={busy} />
            <span>{a.selected_card_mask ?? 'New card'} (new card)</span>
          </label>
        ) : null}
        {!profile.cards.data.length && !newCardSelected ? <p className="muted">No saved cards yet: enter a card below.</p> : null}
      </fieldset>
      {newCardSelected ? (
        <label className="checkbox">
          <input type="checkbox" checked={saveCard} onChange={(e) => onSaveCard(e.target.checked)} />
          SAVE CARD FOR FUTURE USE
        </label>
      ) : null}
      <h3 className="checkout-subhead">New card</h3>
      {/* The toast already says why a card was not used; the field keeps the card typed for another try. */}
      <CardEntry calls={cardCalls} submitLabel="USE THIS CARD" disabled={busy} onToken={useNewCard} saveErrorText={(err) => (err instanceof Error && err.message === 'not saved' ? '' : errorLines(err).join(' '))} />
    </section>
  );
}
