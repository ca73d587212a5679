import { useEffect } from 'react';
import { referralCodeExists } from '../api/signup.ts';
import { REFERRAL_CHECK_FROM } from '../domain/validation.ts';

export const REFERRAL_VALID = 'You successfully validated your referral code!';
export const REFERRAL_UNKNOWN = 'This referral code does not exist.';
// A pause in typing before the code is checked with the server.
const CHECK_DELAY_MS = 300;

/** What the server said about one code. */
export interface ReferralCheck {
  code: string;
  exists: boolean;
}

/** Valid only when the server's answer is about the code as it is typed now. */
export const referralCodeValid = (code: string, check: ReferralCheck | null) => check !== null && check.exists && check.code === code.trim();

/** A referral code input checked with the server from 3 characters (accounts.md §4, §5). */
export function ReferralCodeField(props: { value: string; onChange: (code: string) => void; check: ReferralCheck | null; onChecked: (check: ReferralCheck) => void }) {
  const { value, onChecked } = props;
  const code = value.trim();

  useEffect(() => {
    if (code.length < REFERRAL_CHECK_FROM) return;
    let current = true;
    const timer = window.setTimeout(() => {
      referralCodeExists(code).then(
        (exists) => current && onChecked({ code, exists }),
        () => {
          // Unreachable: the code stays unchecked and NEXT stays disabled.
        },
      );
    }, CHECK_DELAY_MS);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [code, onChecked]);

  const answered = props.check !== null && props.check.code === code && code.length >= REFERRAL_CHECK_FROM;
  return (
    <>
      <label>
        Referral code
        <input value={value} autoCapitalize="characters" aria-invalid={answered && !props.check?.exists} onChange={(e) => props.onChange(e.target.value)} />
      </label>
      {answered && props.check?.exists ? (
        <p className="field-ok" role="status">
          <span aria-hidden="true">✓ </span>
          {REFERRAL_VALID}
        </p>
      ) : null}
      {answered && !props.check?.exists ? (
        <p className="field-error" role="alert">
          {REFERRAL_UNKNOWN}
        </p>
      ) : null}
    </>
  );
}
