import { useState, type FormEvent } from 'react';
import type { Profile } from '../../api/account.ts';
import { addOrderAddress, updateCheckout, type CheckoutOrder } from '../../api/checkout.ts';
import { EMPTY_ADDRESS_FORM, addressFormReady, clientLines, newAddressPayload, type NewAddressForm } from '../../client-rules/checkout.ts';
import { basicInfoProblem, zipProblem } from '../../domain/validation.ts';
import { CheckedField, useFinishedFields } from '../../ui/checked-field.tsx';
import type { CheckoutActions } from './checkout-actions.ts';

type Check = (typed: string, finished: boolean) => string | null;
const FIELDS: { name: keyof NewAddressForm; label: string; autoComplete: string; inputMode?: 'numeric' | 'tel'; check?: Check }[] = [
  { name: 'firstName', label: 'First name', autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last name', autoComplete: 'family-name' },
  { name: 'businessName', label: 'Business name (optional)', autoComplete: 'organization' },
  { name: 'street', label: 'Street address', autoComplete: 'address-line1' },
  { name: 'street2', label: 'Street address 2 (optional)', autoComplete: 'address-line2' },
  { name: 'city', label: 'City', autoComplete: 'address-level2' },
  { name: 'state', label: 'State', autoComplete: 'address-level1' },
  // The lab ships within the US: a 5-digit zip (docs/orders.md §9 zip min 5; the lab refuses other forms).
  { name: 'zip', label: 'Zip', autoComplete: 'postal-code', inputMode: 'numeric', check: zipProblem },
  // Not sent (docs/orders.md §3), yet checked as the account's phone is, so a slip is seen.
  { name: 'phone', label: 'Phone (optional)', autoComplete: 'tel', inputMode: 'tel', check: (typed, finished) => basicInfoProblem('phone', typed, finished) },
];

/**
 * SHIPPING ADDRESS: the saved addresses to choose from, and a new one (saved and set on the order at
 * once). On a drop-ship the parcel goes to the client's address (SHIP TO MY CLIENT), so the section
 * names it and asks for none of the studio's.
 */
export function AddressSection({ order, profile, busy, actions }: { order: CheckoutOrder; profile: Profile; busy: boolean; actions: CheckoutActions }) {
  const a = order.data.attributes;
  const guid = actions.orderGuid;
  const saved = profile.addresses.data;
  const [adding, setAdding] = useState(saved.length === 0);
  const [form, setForm] = useState<NewAddressForm>(EMPTY_ADDRESS_FORM);
  const chosen = a.shipping_address?.guid ?? null;
  const checks = useFinishedFields<keyof NewAddressForm>();
  const fieldId = (name: keyof NewAddressForm) => `new-address-${name}`;
  const problem = (f: (typeof FIELDS)[number], finished: boolean) => f.check?.(form[f.name], finished) ?? null;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!addressFormReady(form) || busy) return;
    // Nothing is saved while a field is wrong: each says so and the first takes the focus.
    if (checks.refuse(FIELDS.filter((f) => problem(f, true)).map((f) => ({ field: f.name, id: fieldId(f.name) })))) return;
    void actions.profileChange(() => addOrderAddress(newAddressPayload(form, guid)), 'The address could not be saved').then((ok) => {
      if (!ok) return;
      setForm(EMPTY_ADDRESS_FORM);
      checks.reset();
      setAdding(false);
    });
  };

  const client = a.drop_ship_address;
  if (client) {
    return (
      <section className="checkout-section" aria-labelledby="checkout-address">
        <h2 id="checkout-address">SHIPPING ADDRESS</h2>
        <p>
          Ships to your client: <strong>{clientLines(client).join(', ')}</strong>
        </p>
        <p className="muted">None of your own addresses is needed. To have it shipped to you, choose SHIP TO ME INSTEAD under SHIP TO MY CLIENT.</p>
      </section>
    );
  }

  return (
    <section className="checkout-section" aria-labelledby="checkout-address">
      <h2 id="checkout-address">SHIPPING ADDRESS</h2>
      {a.local_pickup ? <p className="muted">Local pickup is on: this order is not shipped.</p> : null}
      {saved.length ? (
        <fieldset className="choice-list">
          <legend>Ship to</legend>
          {saved.map((s) => (
            <label key={s.guid} className="checkbox">
              <input
                type="radio"
                name="shipping-address"
                checked={chosen === s.guid}
                disabled={busy}
                onChange={() => void actions.change(() => updateCheckout(guid, { type: 'shipping_address_id', value: s.guid }), 'The address could not be chosen')}
              />
              <span>
                {s.recipient ? `${s.recipient}, ` : ''}
                {s.street}
                {s.street_2 ? `, ${s.street_2}` : ''}, {s.city}, {s.state_province || s.state} {s.zip}
              </span>
            </label>
          ))}
        </fieldset>
      ) : (
        <p className="muted">No saved addresses yet.</p>
      )}
      {adding ? <h3 className="checkout-subhead">New address</h3> : null}
      {adding ? (
        <form className="field-grid with-messages" onSubmit={onSubmit} aria-label="New address" noValidate>
          {FIELDS.map((f) => (
            <CheckedField
              key={f.name}
              id={fieldId(f.name)}
              label={f.label}
              problem={problem(f, checks.finished(f.name))}
              autoComplete={f.autoComplete}
              value={form[f.name]}
              inputMode={f.inputMode}
              type={f.inputMode === 'tel' ? 'tel' : 'text'}
              onChange={(e) => setForm((prev) => ({ ...prev, [f.name]: e.target.value }))}
              onBlur={() => checks.leave(f.name)}
            />
          ))}
          <button type="submit" className="button primary" disabled={!addressFormReady(form) || busy}>
            SAVE
          </button>
        </form>
      ) : (
        <button type="button" className="button" onClick={() => setAdding(true)}>
          NEW ADDRESS
        </button>
      )}
    </section>
  );
}
