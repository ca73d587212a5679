import { useState, type FormEvent } from 'react';
import { errorLines } from '../../api/errors.ts';
import { referralCodeExists, updateReferralCode } from '../../api/signup.ts';
import { REFERRAL_CHECK_FROM, ownReferralCodeProblem } from '../../domain/validation.ts';
import { CheckedField } from '../../ui/checked-field.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { useServerCheck } from '../../ui/use-server-check.ts';

export const CODE_IN_USE = 'This referral code is already in use.';

/** YOUR REFERRAL CODE: SAVE only while the typed code is free (docs/accounts.md §4, §5). */
export function OwnReferralCode(props: { guid: string; current: string; onSaved: (code: string) => void }) {
  const [code, setCode] = useState(props.current);
  const [saving, setSaving] = useState(false);
  // Whether the field was left: a code too short is said only then, not while it is typed.
  const [left, setLeft] = useState(false);
  const typed = code.trim().toUpperCase();
  const saved = props.current;
  const shapeSaid = ownReferralCodeProblem(code, left);

  const asked = typed.length >= REFERRAL_CHECK_FROM && typed !== saved && !ownReferralCodeProblem(code, true);
  const exists = useServerCheck(asked ? typed : null, referralCodeExists);
  const answer = exists === null ? null : !exists;
  const ready = answer === true && !saving;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    try {
      const res = await updateReferralCode(props.guid, typed);
      props.onSaved(res.user.referral_code);
      toast.success('Your referral code was saved.');
    } catch (err) {
      toast.error(errorLines(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="field-grid with-messages" onSubmit={(e) => void onSubmit(e)}>
      <CheckedField
        id="own-referral-code"
        label="Your referral code"
        problem={shapeSaid ?? (answer === false ? CODE_IN_USE : null)}
        autoCapitalize="characters"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        onBlur={() => setLeft(true)}
      />
      <button type="submit" className="button primary" disabled={!ready}>
        SAVE
      </button>
      {saving ? <p role="status">updating user...</p> : null}
    </form>
  );
}
