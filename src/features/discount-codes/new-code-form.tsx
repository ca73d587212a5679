import { useState, type FormEvent } from 'react';
import { ApiError, errorLines } from '../../api/errors.ts';
import { createDiscountCode, type AdminDiscountCode, type NewCodeForm } from '../../api/discount-codes.ts';
import { parseAmount, parseCode, parseLastDay, parsePercent, parseUsageLimit, type Parsed } from '../../domain/discount-codes.ts';
import { toast } from '../../ui/toasts/toast-store.ts';

type Field = 'code' | 'worth' | 'last_day' | 'usage_limit';
type Kind = 'percent' | 'amount';
const LABELS: Record<Field, string> = { code: 'Code', worth: 'Worth', last_day: 'Last day (optional)', usage_limit: 'Usage limit (optional)' };
const EMPTY: Record<Field, string> = { code: '', worth: '', last_day: '', usage_limit: '' };

/** The rules of the command line and the API (domain/discount-codes.ts), field by field; an empty optional field is fine. */
function problemOf(field: Field, value: string, kind: Kind): string | null {
  const check = (parsed: Parsed<unknown>) => ('problem' in parsed ? parsed.problem : null);
  if (field === 'code') return check(parseCode(value));
  if (field === 'worth') return check(kind === 'percent' ? parsePercent(value) : parseAmount(value));
  if (!value.trim()) return null;
  return check(field === 'last_day' ? parseLastDay(value) : parseUsageLimit(value));
}

// The API's names for the form's fields, to put a refusal beside the field it is about.
const API_FIELDS: Record<string, Field> = { code: 'code', percent: 'worth', amount: 'worth', last_day: 'last_day', usage_limit: 'usage_limit' };

/** NEW CODE: each field checked where it is typed, the message beside it; nothing is sent while one is wrong. */
export function NewCodeFormSection({ onCreated }: { onCreated: (code: AdminDiscountCode) => void }) {
  const [form, setForm] = useState(EMPTY);
  const [kind, setKind] = useState<Kind>('percent');
  // A field's message shows once the field was left or the form sent: not while the first letters are typed.
  const [finished, setFinished] = useState<Partial<Record<Field, boolean>>>({});
  const [refused, setRefused] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);

  const problem = (field: Field) => refused[field] ?? (finished[field] ? problemOf(field, form[field], kind) : null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFinished({ code: true, worth: true, last_day: true, usage_limit: true });
    if ((Object.keys(EMPTY) as Field[]).some((f) => problemOf(f, form[f], kind))) return;
    const body: NewCodeForm = { code: form.code, [kind]: form.worth };
    if (form.last_day.trim()) body.last_day = form.last_day.trim();
    if (form.usage_limit.trim()) body.usage_limit = form.usage_limit.trim();
    setBusy(true);
    try {
      const { data } = await createDiscountCode(body);
      toast.success(`Discount code ${data.code} created.`);
      setForm(EMPTY);
      setFinished({});
      onCreated(data);
    } catch (err) {
      // A refusal about one field goes beside it (a code that exists, say); anything else is a toast.
      const field = err instanceof ApiError && err.status === 422 ? API_FIELDS[err.moreInfo[0]?.split(':')[0] ?? ''] : undefined;
      if (field) setRefused({ [field]: err instanceof Error ? err.message : '' });
      else toast.error(errorLines(err));
    } finally {
      setBusy(false);
    }
  };

  const input = (field: Field, extra: object = {}) => {
    const id = `new-code-${field}`;
    const said = problem(field);
    return (
      <div className="labelled-field">
        <label htmlFor={id}>{field === 'worth' ? (kind === 'percent' ? 'Percent off' : 'Dollars off') : LABELS[field]}</label>
        <input
          id={id}
          value={form[field]}
          aria-invalid={said ? true : undefined}
          aria-describedby={said ? `${id}-problem` : undefined}
          onChange={(e) => {
            setForm((f) => ({ ...f, [field]: e.target.value }));
            setRefused({});
          }}
          onBlur={() => setFinished((f) => ({ ...f, [field]: true }))}
          {...extra}
        />
        {said ? (
          <p id={`${id}-problem`} className="field-error">
            {said}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <form className="new-code" aria-labelledby="new-code-title" onSubmit={(e) => void submit(e)} noValidate>
      <h2 id="new-code-title">NEW CODE</h2>
      {input('code', { autoCapitalize: 'characters', autoComplete: 'off', spellCheck: false })}
      <fieldset className="new-code-kind">
        <legend>Worth</legend>
        {(['percent', 'amount'] as const).map((k) => (
          <label key={k}>
            <input type="radio" name="new-code-kind" checked={kind === k} onChange={() => setKind(k)} /> {k === 'percent' ? 'A percent' : 'An amount'}
          </label>
        ))}
      </fieldset>
      {input('worth', { inputMode: 'decimal', autoComplete: 'off' })}
      {input('last_day', { type: 'date' })}
      {input('usage_limit', { inputMode: 'numeric', autoComplete: 'off' })}
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? 'saving…' : 'CREATE CODE'}
      </button>
    </form>
  );
}
