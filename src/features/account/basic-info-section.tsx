import { useState, type FormEvent } from 'react';
import { updateBasicInformation, type Profile } from '../../api/account.ts';
import { errorLines } from '../../api/errors.ts';
import { BASIC_INFO_FIELDS, BASIC_INFO_NAMES, basicInfoProblem, phoneDigits, type BasicInfoField } from '../../domain/validation.ts';
import { CheckedField } from '../../ui/checked-field.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';

type Form = Record<BasicInfoField, string>;
const EMPTY: Form = { first_name: '', last_name: '', business_name: '', phone: '' };
const NONE_FINISHED: Record<BasicInfoField, boolean> = { first_name: false, last_name: false, business_name: false, phone: false };
const LABELS: Record<BasicInfoField, string> = { first_name: 'First name', last_name: 'Last name', business_name: 'Business name', phone: 'Phone' };

/**
 * BASIC INFORMATION: UPDATE once any field is filled (docs/accounts.md §5). Each field says what is
 * wrong with it beside it and keeps what was typed; UPDATE saves the fields that are right and
 * leaves a wrong one, with its message, to be put right.
 */
export function BasicInfoSection({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const [form, setForm] = useState<Form>(EMPTY);
  const [finished, setFinished] = useState(NONE_FINISHED);
  const [busy, setBusy] = useState(false);
  const u = profile.user;
  const ready = Object.values(form).some((v) => v.trim() !== '');
  const problem = (field: BasicInfoField) => basicInfoProblem(field, form[field], finished[field]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const filled = BASIC_INFO_FIELDS.filter((f) => form[f].trim() !== '');
    const wrong = filled.filter((f) => basicInfoProblem(f, form[f], true));
    const right = filled.filter((f) => !wrong.includes(f));
    setFinished({ ...finished, ...Object.fromEntries(wrong.map((f) => [f, true])) });
    if (!right.length) return;
    setBusy(true);
    try {
      const sent = Object.fromEntries(right.map((f) => [f, f === 'phone' ? phoneDigits(form[f].trim()) : form[f].trim()]));
      onSaved(await updateBasicInformation(u.guid, sent));
      // What was saved now shows above; a wrong field keeps its text to be put right.
      setForm((now) => ({ ...now, ...Object.fromEntries(right.map((f) => [f, ''])) }));
      toast.success(
        wrong.length
          ? `Your information was updated, except the ${wrong.map((f) => BASIC_INFO_NAMES[f]).join(' and ')}: see ${wrong.length === 1 ? 'the message beside it' : 'the messages beside them'}.`
          : 'Your information was updated.',
      );
    } catch (err) {
      toast.error(errorLines(err));
    } finally {
      setBusy(false);
    }
  };

  const input = (name: BasicInfoField, current: string | null, extra: object = {}) => (
    <CheckedField
      id={`basic-info-${name}`}
      label={LABELS[name]}
      problem={problem(name)}
      name={name}
      placeholder={current ?? ''}
      value={form[name]}
      onChange={(e) => setForm((f) => ({ ...f, [name]: e.target.value }))}
      onBlur={() => setFinished((f) => (f[name] ? f : { ...f, [name]: true }))}
      {...extra}
    />
  );

  return (
    <section className="account-section" aria-labelledby="basic-info">
      <h2 id="basic-info">BASIC INFORMATION</h2>
      <p className="muted">
        {u.first_name} {u.last_name}
        {u.business_name ? ` · ${u.business_name}` : ''}
        {u.phone ? ` · ${u.phone}` : ''}
      </p>
      <form noValidate onSubmit={(e) => void onSubmit(e)}>
        <div className="field-grid with-messages">
          {input('first_name', u.first_name)}
          {input('last_name', u.last_name)}
          {input('business_name', u.business_name)}
          {input('phone', u.phone, { type: 'tel', inputMode: 'tel', autoComplete: 'tel' })}
        </div>
        <button type="submit" className="button primary" disabled={!ready || busy}>
          UPDATE
        </button>
      </form>
    </section>
  );
}
