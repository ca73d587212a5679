import { useState, type FormEvent } from 'react';
import { updateBasicInformation, type Profile } from '../../api/account.ts';
import { errorLines } from '../../api/errors.ts';
import { toast } from '../../ui/toasts/toast-store.ts';

/** BASIC INFORMATION: UPDATE once any field is filled; the phone takes digits only (accounts.md §5). */
export function BasicInfoSection({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const [form, setForm] = useState({ first_name: '', last_name: '', business_name: '', phone: '' });
  const [busy, setBusy] = useState(false);
  const u = profile.user;
  const ready = Object.values(form).some((v) => v.trim() !== '');

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const sent = Object.fromEntries(Object.entries(form).filter(([, v]) => v.trim() !== ''));
      onSaved(await updateBasicInformation(u.guid, sent));
      setForm({ first_name: '', last_name: '', business_name: '', phone: '' });
      toast.success('Your information was updated.');
    } catch (err) {
      toast.error(errorLines(err));
    } finally {
      setBusy(false);
    }
  };

  const input = (name: keyof typeof form, label: string, current: string | null, extra: object = {}) => (
    <label>
      {label}
      <input
        name={name}
        placeholder={current ?? ''}
        value={form[name]}
        onChange={(e) => setForm((f) => ({ ...f, [name]: name === 'phone' ? e.target.value.replace(/\D/g, '') : e.target.value }))}
        {...extra}
      />
    </label>
  );

  return (
    <section className="account-section" aria-labelledby="basic-info">
      <h2 id="basic-info">BASIC INFORMATION</h2>
      <p className="muted">
        {u.first_name} {u.last_name}
        {u.business_name ? ` · ${u.business_name}` : ''}
        {u.phone ? ` · ${u.phone}` : ''}
      </p>
      <form className="field-grid" onSubmit={(e) => void onSubmit(e)}>
        {input('first_name', 'First name', u.first_name)}
        {input('last_name', 'Last name', u.last_name)}
        {input('business_name', 'Business name', u.business_name)}
        {input('phone', 'Phone', u.phone, { inputMode: 'numeric', autoComplete: 'tel' })}
        <button type="submit" className="button primary" disabled={!ready || busy}>
          UPDATE
        </button>
      </form>
    </section>
  );
}
