import { useState, type FormEvent } from 'react';
import { setOrderAddress } from '../../api/orders-admin.ts';
import type { OrderDetailAttributes } from '../../api/orders-detail.ts';
import { clientLines } from '../../client-rules/checkout.ts';
import { adminAddressForm, adminAddressPayload, adminAddressProblems, type AdminAddressForm } from '../../client-rules/order-detail.ts';
import { zipProblem } from '../../domain/validation.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import { addressLines } from './order-summary.tsx';

type Run = (label: string, call: () => Promise<unknown>, done: string) => Promise<boolean>;

const FIELDS: { name: keyof AdminAddressForm; label: string; autoComplete: string; digits?: number }[] = [
  { name: 'recipient', label: 'Recipient', autoComplete: 'name' },
  { name: 'street', label: 'Street address', autoComplete: 'address-line1' },
  { name: 'street2', label: 'Street address 2 (optional)', autoComplete: 'address-line2' },
  { name: 'city', label: 'City', autoComplete: 'address-level2' },
  { name: 'state', label: 'State', autoComplete: 'address-level1' },
  // The lab ships within the US: 5 digits (the lab answers the same rule). No length limit: a sixth
  // digit is kept and said beside the field, not silently refused.
  { name: 'zip', label: 'Zip', autoComplete: 'postal-code', digits: 5 },
];

// Once the parcel has left, or the order is cancelled, the lab keeps the address as it was.
const FIXED = new Set(['shipped', 'cancelled']);

/**
 * SHIP TO on the admin panel: the address, COPY ADDRESS, and EDIT ADDRESS (docs/orders.md §6). On a
 * drop-ship the parcel goes to the photographer's client: that address is the one shown and edited
 * (the lab edits it through the same call), and the panel says whose it is.
 */
export function AdminAddress({ order, busy, run }: { order: OrderDetailAttributes; busy: string | null; run: Run }) {
  const client = order.local_pickup ? null : order.drop_ship_address;
  const shipTo = client ?? order.shipping_address;
  const address = client ? clientLines(client).join('\n') : order.shipping_address ? addressLines(order.shipping_address).join('\n') : null;
  const [form, setForm] = useState<AdminAddressForm | null>(null);
  const [checked, setChecked] = useState(false);
  const problems = form ? adminAddressProblems(form) : {};
  // Before SAVE ADDRESS, a zip that cannot be right (a letter, a sixth digit) is said as it is typed.
  const zipAsTyped = form ? zipProblem(form.zip, false) : null;
  const shown = checked ? problems : zipAsTyped ? { zip: zipAsTyped } : {};
  const editable = !FIXED.has(order.status);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!form) return;
    setChecked(true);
    const firstWrong = FIELDS.find((f) => problems[f.name]);
    if (firstWrong) {
      document.getElementById(`admin-address-${firstWrong.name}`)?.focus();
      return;
    }
    void run('Saving the address', () => setOrderAddress(adminAddressPayload(form, order.guid)), client ? "The client's address is saved." : 'Shipping address saved.').then((ok) => {
      if (ok) {
        setForm(null);
        setChecked(false);
      }
    });
  };

  return (
    <section aria-label="Shipping address" className="admin-block">
      <h3>SHIP TO</h3>
      {order.local_pickup ? <p className="muted">Local pickup: this order is not shipped.</p> : null}
      {client ? <p>Drop-ship: the parcel goes to the photographer's client, not to the studio.</p> : null}
      {address ? <p className="pre-wrap">{address}</p> : <p className="muted">No shipping address yet.</p>}
      {address ? (
        <button
          type="button"
          className="button"
          onClick={() =>
            void navigator.clipboard.writeText(address).then(
              () => toast.info('The address is copied.'),
              () => toast.error('The address could not be copied: select it and copy it by hand.'),
            )
          }
        >
          COPY ADDRESS
        </button>
      ) : null}
      {editable && !form ? (
        <button type="button" className="button" disabled={busy !== null} onClick={() => setForm(adminAddressForm(shipTo))}>
          {client ? "EDIT CLIENT'S ADDRESS" : address ? 'EDIT ADDRESS' : 'ADD ADDRESS'}
        </button>
      ) : null}
      {!editable ? <p className="muted">The address stays as it was once the order has shipped or is cancelled.</p> : null}
      {form ? (
        <form onSubmit={submit} aria-label={client ? "Edit client's address" : 'Edit shipping address'} noValidate className="admin-address-form">
          {FIELDS.map((f) => {
            const problem = shown[f.name];
            const id = `admin-address-${f.name}`;
            return (
              <div className="field" key={f.name}>
                <label htmlFor={id}>{f.label}</label>
                <input
                  id={id}
                  autoComplete={f.autoComplete}
                  value={form[f.name]}
                  maxLength={f.digits ? undefined : 200}
                  {...(f.digits ? { inputMode: 'numeric' as const } : {})}
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={problem ? `${id}-problem` : undefined}
                  onChange={(e) => setForm({ ...form, [f.name]: e.target.value })}
                />
                {problem ? (
                  <p id={`${id}-problem`} className="form-error">
                    {problem}
                  </p>
                ) : null}
              </div>
            );
          })}
          {checked && Object.keys(problems).length ? (
            <p className="form-error" role="alert">
              The address is not saved: {Object.values(problems).join(' ')}
            </p>
          ) : null}
          <div className="admin-form-actions">
            <button type="submit" className="button primary" disabled={busy !== null}>
              SAVE ADDRESS
            </button>
            <button
              type="button"
              className="button"
              onClick={() => {
                setForm(null);
                setChecked(false);
              }}
            >
              CANCEL
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
