import { useState, type FormEvent } from 'react';
import { removeDropShip, setDropShip, type CheckoutOrder } from '../../api/checkout.ts';
import { clientLines } from '../../client-rules/checkout.ts';
import { formatMoney } from '../../domain/money.ts';
import { zipProblem } from '../../domain/validation.ts';
import type { ShippingPrices } from '../../offline/use-shipping-prices.ts';
import { CheckedField, useFinishedFields } from '../../ui/checked-field.tsx';
import type { CheckoutActions } from './checkout-actions.ts';

type ClientForm = { name: string; street: string; street2: string; city: string; state: string; zip: string };
const EMPTY: ClientForm = { name: '', street: '', street2: '', city: '', state: '', zip: '' };
const FIELDS: { name: keyof ClientForm; label: string; autoComplete: string; numeric?: boolean }[] = [
  { name: 'name', label: "Client's name", autoComplete: 'off' },
  { name: 'street', label: 'Street address', autoComplete: 'off' },
  { name: 'street2', label: 'Street address 2 (optional)', autoComplete: 'off' },
  { name: 'city', label: 'City', autoComplete: 'off' },
  { name: 'state', label: 'State', autoComplete: 'off' },
  { name: 'zip', label: 'Zip', autoComplete: 'off', numeric: true },
];
const ready = (f: ClientForm) => [f.name, f.street, f.city, f.state, f.zip].every((v) => v.trim() !== '');

/**
 * SHIP TO MY CLIENT (issue 34): the order goes straight to the photographer's client, at the
 * lab's drop-ship fee. The client's address is the order's own: it is never saved among the
 * photographer's addresses (autofill is off for the same reason).
 */
export function DropShipSection({ order, busy, actions, prices }: { order: CheckoutOrder; busy: boolean; actions: CheckoutActions; prices: ShippingPrices | null }) {
  const a = order.data.attributes;
  const client = a.drop_ship_address;
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<ClientForm>(EMPTY);
  const checks = useFinishedFields<keyof ClientForm>();
  const fieldId = (name: keyof ClientForm) => `client-${name}`;
  const problem = (name: keyof ClientForm, finished: boolean) => (name === 'zip' ? zipProblem(form.zip, finished) : null);
  const fee = prices ? ` (${formatMoney(prices.dropShipFee)} drop-ship fee per order)` : '';

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!ready(form) || busy) return;
    if (checks.refuse(problem('zip', true) ? [{ field: 'zip', id: fieldId('zip') }] : [])) return;
    const body = { recipient_name: form.name, street_address: form.street, street_address_two: form.street2, city: form.city, state: form.state, zip: form.zip.trim() };
    void actions.change(() => setDropShip(actions.orderGuid, body), "Your client's address could not be saved").then((ok) => {
      if (!ok) return;
      setForm(EMPTY);
      checks.reset();
      setOpen(false);
    });
  };
  const remove = () => void actions.change(() => removeDropShip(actions.orderGuid), 'The order could not be set to ship to you');

  return (
    <section className="checkout-section" aria-labelledby="checkout-drop-ship">
      <h2 id="checkout-drop-ship">SHIP TO MY CLIENT</h2>
      {client ? (
        <>
          <p className="final-address" aria-label="Client address">
            {clientLines(client).map((line) => (
              <span key={line}>{line}</span>
            ))}
          </p>
          <button type="button" className="button" disabled={busy} onClick={remove}>
            SHIP TO ME INSTEAD
          </button>
        </>
      ) : (
        <label className="checkbox">
          <input type="checkbox" checked={open} disabled={busy} onChange={(e) => setOpen(e.target.checked)} />
          Ship this order straight to my client{fee}
        </label>
      )}
      {open && !client ? (
        <form className="field-grid with-messages" onSubmit={onSubmit} aria-label="Client address" noValidate>
          {FIELDS.map((f) => (
            <CheckedField
              key={f.name}
              id={fieldId(f.name)}
              label={f.label}
              problem={problem(f.name, checks.finished(f.name))}
              autoComplete={f.autoComplete}
              value={form[f.name]}
              inputMode={f.numeric ? 'numeric' : undefined}
              type="text"
              onChange={(e) => setForm((prev) => ({ ...prev, [f.name]: e.target.value }))}
              onBlur={() => checks.leave(f.name)}
            />
          ))}
          <button type="submit" className="button primary" disabled={!ready(form) || busy}>
            SHIP TO THIS CLIENT
          </button>
        </form>
      ) : null}
    </section>
  );
}
