import { useState, type FormEvent } from 'react';
import { addAddress, makePrimaryAddress, removeAddress, type Profile } from '../../api/account.ts';
import { errorLines } from '../../api/errors.ts';
import { isZip, zipProblem } from '../../domain/validation.ts';
import { CheckedField } from '../../ui/checked-field.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { PrimaryChooser } from './primary-chooser.tsx';

const EMPTY = { street_address: '', city: '', state: '', zip: '' };

/** Shipping addresses: ADD ADDRESS, a primary chooser, removal one by one (docs/accounts.md §2, §5). */
export function AddressesSection({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const [form, setForm] = useState(EMPTY);
  const [busy, setBusy] = useState(false);
  // Whether the zip field was left: a short zip is said only then, not while it is typed.
  const [zipLeft, setZipLeft] = useState(false);
  const zipSaid = zipProblem(form.zip, zipLeft);
  const ready = form.street_address.trim() !== '' && form.city.trim() !== '' && form.state.trim() !== '' && isZip(form.zip);

  const run = async (action: () => Promise<Profile>, after?: () => void) => {
    setBusy(true);
    try {
      onSaved(await action());
      after?.();
    } catch (err) {
      toast.error(errorLines(err));
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void run(
      () => addAddress({ ...form, zip: form.zip.trim() }),
      () => {
        setForm(EMPTY);
        setZipLeft(false);
      },
    );
  };

  // Removes every saved address, one call at a time, as the spec's bulk clearing does.
  const removeAll = () =>
    void run(async () => {
      let latest = profile;
      for (const a of profile.addresses.data) latest = await removeAddress(a.guid);
      return latest;
    });

  const list = profile.addresses.data;
  return (
    <section className="account-section" aria-labelledby="addresses">
      <h2 id="addresses">SHIPPING ADDRESSES</h2>
      {list.length ? (
        <PrimaryChooser
          legend="Primary address"
          name="primary-address"
          items={list.map((a) => ({ id: a.guid, label: `${a.street}, ${a.city}, ${a.state} ${a.zip}` }))}
          primary={profile.default_address}
          busy={busy}
          onChoose={(id) => void run(() => makePrimaryAddress(id))}
          onRemove={(id) => void run(() => removeAddress(id))}
          removeAllLabel="REMOVE ALL ADDRESSES"
          onRemoveAll={removeAll}
        />
      ) : (
        <p className="muted">No saved addresses yet.</p>
      )}
      <form className="field-grid with-messages" onSubmit={onSubmit}>
        <label>
          Street address
          <input autoComplete="street-address" value={form.street_address} onChange={(e) => setForm((f) => ({ ...f, street_address: e.target.value }))} />
        </label>
        <label>
          City
          <input autoComplete="address-level2" value={form.city} onChange={(e) => setForm((f) => ({ ...f, city: e.target.value }))} />
        </label>
        <label>
          State
          <input autoComplete="address-level1" value={form.state} onChange={(e) => setForm((f) => ({ ...f, state: e.target.value }))} />
        </label>
        <CheckedField
          id="address-zip"
          label="Zip"
          problem={zipSaid}
          inputMode="numeric"
          autoComplete="postal-code"
          value={form.zip}
          onChange={(e) => setForm((f) => ({ ...f, zip: e.target.value }))}
          onBlur={() => setZipLeft(true)}
        />
        <button type="submit" className="button primary" disabled={!ready || busy}>
          ADD ADDRESS
        </button>
      </form>
    </section>
  );
}
