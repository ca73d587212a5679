import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { Profile } from '../../api/account.ts';
import { errorLines } from '../../api/errors.ts';
import { getPackingSlip, removeLogo, setLogo, setReturnAddress, type PackingSlipIdentity } from '../../api/packing-slip.ts';
import { LOGO_TOO_LARGE, MAX_LOGO_BYTES, RETURN_ADDRESS_MAX, type ReturnAddress } from '../../domain/packing-slip.ts';
import { ErrorLines } from '../../ui/error-lines.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import './account-extras.css';

type AddressForm = Record<keyof ReturnAddress, string>;
const EMPTY: AddressForm = { name: '', street: '', street_2: '', city: '', state: '', zip: '' };
const LABELS: Record<keyof ReturnAddress, string> = { name: 'Return name', street: 'Street', street_2: 'Street 2 (optional)', city: 'City', state: 'State', zip: 'Zip' };
const FIELDS = Object.keys(LABELS) as (keyof ReturnAddress)[];

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.addEventListener('load', () => resolve(String(reader.result)));
    reader.addEventListener('error', () => reject(new Error('The file could not be read.')));
    reader.readAsDataURL(file);
  });

/**
 * PACKING SLIP: what a client of the studio sees on a blind (white-label) slip: the business name
 * of BASIC INFORMATION, a logo and a return address kept apart from the shipping addresses.
 */
export function PackingSlipSection({ profile }: { profile: Profile }) {
  const [slip, setSlip] = useState<PackingSlipIdentity | null>(null);
  const [form, setForm] = useState<AddressForm>(EMPTY);
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const businessName = profile.user.business_name;

  const show = useCallback((answer: PackingSlipIdentity) => {
    setSlip(answer);
    setForm(answer.return_address ? { ...answer.return_address, street_2: answer.return_address.street_2 ?? '' } : EMPTY);
  }, []);
  useEffect(() => {
    getPackingSlip().then(show, (err: unknown) => toast.error(errorLines(err)));
  }, [show]);

  const run = async (work: () => Promise<PackingSlipIdentity>, done: string) => {
    setBusy(true);
    setErrors([]);
    try {
      show(await work());
      toast.success(done);
    } catch (err) {
      setErrors(errorLines(err));
    } finally {
      setBusy(false);
    }
  };

  const onLogo = (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_LOGO_BYTES) {
      setErrors([LOGO_TOO_LARGE]);
      return;
    }
    void run(async () => setLogo(await readAsDataUrl(file)), 'Your logo was saved.');
  };
  const saveAddress = (e: FormEvent) => {
    e.preventDefault();
    void run(() => setReturnAddress({ ...form, street_2: form.street_2.trim() || null }), 'Your return address was saved.');
  };

  return (
    <section className="account-section" aria-labelledby="packing-slip">
      <h2 id="packing-slip">PACKING SLIP</h2>
      <p className="muted">
        When the lab ships an order straight to your client with a blind packing slip, the slip shows your business name, logo and return address, and the prints. It never
        names the lab nor shows a price.
      </p>
      <p>{businessName ? `Business name: ${businessName}` : 'Add your business name under BASIC INFORMATION: the slip shows it.'}</p>
      {slip === null ? (
        <p role="status">loading</p>
      ) : (
        <>
          <div className="slip-logo">
            {slip.logo_link ? <img src={slip.logo_link} alt="Your logo as the slip shows it" /> : <p className="muted">No logo yet.</p>}
            <label>
              Logo (JPEG or PNG, up to {MAX_LOGO_BYTES / 1024 / 1024} MB)
              <input type="file" accept="image/jpeg,image/png" disabled={busy} onChange={(e) => onLogo(e.target.files?.[0])} />
            </label>
            {slip.logo_link ? (
              <button type="button" className="button" disabled={busy} onClick={() => void run(removeLogo, 'Your logo was removed.')}>
                REMOVE LOGO
              </button>
            ) : null}
          </div>
          <form className="field-grid" onSubmit={saveAddress} aria-label="Return address">
            {FIELDS.map((field) => (
              <label key={field}>
                {LABELS[field]}
                <input
                  value={form[field]}
                  maxLength={RETURN_ADDRESS_MAX[field]}
                  required={field !== 'street_2'}
                  onChange={(e) => setForm((f) => ({ ...f, [field]: e.target.value }))}
                />
              </label>
            ))}
            <button type="submit" className="button primary" disabled={busy}>
              SAVE RETURN ADDRESS
            </button>
          </form>
        </>
      )}
      <ErrorLines title="The packing slip could not be saved:" lines={errors} />
    </section>
  );
}
