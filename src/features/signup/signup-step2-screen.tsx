import { useState, type FormEvent } from 'react';
import { useNavigate } from '../../ui/router.tsx';
import { referralCodeExists, updateNewUser } from '../../api/signup.ts';
import { ROUTES } from '../../app/routes.ts';
import { FormFailure } from './form-failure.tsx';
import { forgetReferralCode, rememberedReferralCode } from './referral-arrival.ts';
import { ReferralCodeField, useReferralCodeCheck } from '../../ui/referral-code-field.tsx';

/** /signup/2-of-3: 'Were you referred by another photographer?' */
export function SignupStep2Screen() {
  const navigate = useNavigate();
  const arrivedWith = rememberedReferralCode();
  const [answer, setAnswer] = useState<'' | 'YES' | 'NO'>(arrivedWith ? 'YES' : '');
  const [code, setCode] = useState(arrivedWith);
  const exists = useReferralCodeCheck(code, referralCodeExists);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);

  const ready = answer === 'NO' || (answer === 'YES' && exists === true);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready) return;
    setBusy(true);
    setFailure(null);
    try {
      if (answer === 'YES') await updateNewUser({ code: code.trim() });
      forgetReferralCode();
      void navigate(ROUTES.signupStep3);
    } catch (err) {
      setFailure(err);
      setBusy(false);
    }
  };

  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={(e) => void onSubmit(e)}>
        <p className="step-marker">
          1 • <strong>2</strong> • 3
        </p>
        <h1>Were you referred by another photographer?</h1>
        <label>
          Referred by a photographer
          <select value={answer} onChange={(e) => setAnswer(e.target.value as '' | 'YES' | 'NO')}>
            <option value="">Select one</option>
            <option value="YES">YES</option>
            <option value="NO">NO</option>
          </select>
        </label>
        {answer === 'YES' ? <ReferralCodeField value={code} onChange={setCode} exists={exists} /> : null}
        {failure ? <FormFailure error={failure} /> : null}
        <button type="submit" className="button primary" disabled={!ready || busy}>
          NEXT
        </button>
      </form>
    </main>
  );
}
