import { REFERRAL_CHECK_FROM } from '../domain/validation.ts';
import { useServerCheck } from './use-server-check.ts';

export const REFERRAL_VALID = 'You successfully validated your referral code!';
export const REFERRAL_UNKNOWN = 'This referral code does not exist.';

/**
 * Whether the typed referral code exists: checked with the server from 3 characters (docs/accounts.md §5)
 * by `exists`, the screen's call (src/api/signup.ts).
 */
export function useReferralCodeCheck(code: string, exists: (code: string) => Promise<boolean>): boolean | null {
  const typed = code.trim();
  return useServerCheck(typed.length >= REFERRAL_CHECK_FROM ? typed : null, exists);
}

/** A referral code input with the server's verdict under it (docs/accounts.md §4). */
export function ReferralCodeField(props: { value: string; onChange: (code: string) => void; exists: boolean | null }) {
  return (
    <>
      <label>
        Referral code
        <input value={props.value} autoCapitalize="characters" aria-invalid={props.exists === false} onChange={(e) => props.onChange(e.target.value)} />
      </label>
      {props.exists === true ? (
        <p className="field-ok" role="status">
          <span aria-hidden="true">✓ </span>
          {REFERRAL_VALID}
        </p>
      ) : null}
      {props.exists === false ? (
        <p className="field-error" role="alert">
          {REFERRAL_UNKNOWN}
        </p>
      ) : null}
    </>
  );
}
