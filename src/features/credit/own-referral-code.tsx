import { useState, type FormEvent } from 'react';
import { errorLines } from '../../api/errors.ts';
import { referralCodeExists, updateReferralCode } from '../../api/signup.ts';
import { REFERRAL_CHECK_FROM } from '../../domain/validation.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import { useServerCheck } from '../../ui/use-server-check.ts';

export const CODE_IN_USE = 'This referral code is already in use.';

/** YOUR REFERRAL CODE: SAVE only while the typed code is free (accounts.md §4, §5). */
export function OwnReferralCode(props: { guid: string; current: string; onSaved: (code: string) => void }) {
  const [code, setCode] = useState(props.current);
  const [saving, setSaving] = useState(false);
  const typed = code.trim().toUpperCase();
  const saved = props.current;

  const exists = useServerCheck(typed.length >= REFERRAL_CHECK_FROM && typed !== saved ? typed : null, referralCodeExists);
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
    <form className="field-grid" onSubmit={(e) => void onSubmit(e)}>
      <label>
        Your referral code
        <input value={code} autoCapitalize="characters" aria-invalid={answer === false} onChange={(e) => setCode(e.target.value.replace(/[^A-Za-z0-9]/g, ''))} />
      </label>
      <button type="submit" className="button primary" disabled={!ready}>
        SAVE
      </button>
      {answer === false ? (
        <p className="field-error" role="alert">
          {CODE_IN_USE}
        </p>
      ) : null}
      {saving ? <p role="status">updating user...</p> : null}
    </form>
  );
}
