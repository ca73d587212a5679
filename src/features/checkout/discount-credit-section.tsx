import { useEffect, useState, type FormEvent } from 'react';
import type { Profile } from '../../api/account.ts';
import { updateCheckout, validateDiscountCode, type CheckoutOrder } from '../../api/checkout.ts';
import { ApiError, errorText } from '../../api/errors.ts';
import { CREDIT_OVER_LIMIT, INVALID_DISCOUNT_CODE, checkCredit, codeAppliedText, normaliseDiscountCode, shouldCheckDiscountCode } from '../../client-rules/checkout.ts';
import { formatMoney, toCents, toDollars } from '../../domain/money.ts';
import type { CheckoutActions } from './checkout-actions.ts';

// Typing pauses this long before a code is checked: one check per word typed, not per key,
// as the lab limits code checks per account.
const CODE_CHECK_DEBOUNCE_MS = 300;

type CodeCheck = { code: string; state: 'valid' | 'invalid' | 'failed'; message?: string };

/** The lab's refusal in its own words when it gave some, else the catalogue's line for the failure. */
const refusal = (err: unknown, fallback: string) => (err instanceof ApiError && err.kind === 'server' && err.message ? err.message : err instanceof ApiError ? errorText(err) : fallback);

/** DISCOUNT CODE (checked from 4 characters, APPLY after success) and CREDIT (never above what is available). */
export function DiscountCreditSection({ order, profile, busy, actions }: { order: CheckoutOrder; profile: Profile; busy: boolean; actions: CheckoutActions }) {
  const a = order.data.attributes;
  const guid = actions.orderGuid;
  const [typed, setTyped] = useState('');
  const [answer, setCheck] = useState<CodeCheck | null>(null);
  const [applyError, setApplyError] = useState<string | null>(null);
  const code = normaliseDiscountCode(typed);
  const checking = shouldCheckDiscountCode(code);
  // The lab's answer about the code now typed; none below 4 characters (its error clears).
  const check = checking && answer?.code === code ? answer : null;

  useEffect(() => {
    if (!checking) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      validateDiscountCode(code, controller.signal).then(
        () => setCheck({ code, state: 'valid' }),
        (err: unknown) => {
          if (controller.signal.aborted) return;
          const invalid = err instanceof ApiError && (err.status === 404 || err.status === 422);
          // The lab's reason when it gave one (a paused or expired code says so), else the spec's line.
          setCheck(invalid ? { code, state: 'invalid', message: refusal(err, INVALID_DISCOUNT_CODE) } : { code, state: 'failed', message: errorText(err) });
        },
      );
    }, CODE_CHECK_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [code, checking]);

  const valid = check?.state === 'valid';
  const applyCode = (e: FormEvent) => {
    e.preventDefault();
    if (!valid || busy) return;
    setApplyError(null);
    void actions
      .change(() => updateCheckout(guid, { type: 'discount_code', value: code }), (err) => setApplyError(refusal(err, INVALID_DISCOUNT_CODE)))
      .then((ok) => ok && setTyped(''));
  };
  const removeCode = () => void actions.change(() => updateCheckout(guid, { type: 'discount_code', value: '' }), 'The code could not be removed');

  const availableCents = toCents(profile.user.credit_available);
  const [creditTyped, setCreditTyped] = useState('');
  const [creditError, setCreditError] = useState<string | null>(null);
  const credit = checkCredit(creditTyped, availableCents);
  const applyCredit = (e: FormEvent) => {
    e.preventDefault();
    if (credit.kind !== 'ok' || busy) return;
    setCreditError(null);
    void actions
      .change(() => updateCheckout(guid, { type: 'credit', value: toDollars(credit.cents) }), (err) => setCreditError(refusal(err, CREDIT_OVER_LIMIT)))
      .then((ok) => ok && setCreditTyped(''));
  };
  const creditMessage = credit.kind === 'over' ? credit.message : creditError;
  const codeMessage = check && check.state !== 'valid' ? check.message : applyError;

  return (
    <section className="checkout-section" aria-labelledby="checkout-discount">
      <h2 id="checkout-discount">DISCOUNT AND CREDIT</h2>
      <form className="inline-form" onSubmit={applyCode}>
        <label>
          Discount code
          <input
            value={typed}
            autoCapitalize="characters"
            spellCheck={false}
            aria-invalid={codeMessage ? true : undefined}
            aria-describedby="discount-code-message"
            onChange={(e) => {
              setTyped(e.target.value);
              setApplyError(null);
            }}
          />
        </label>
        <button type="submit" className="button" disabled={!valid || busy}>
          APPLY<span className="visually-hidden"> CODE</span>
        </button>
      </form>
      <p id="discount-code-message" className={codeMessage ? 'field-error' : 'muted'} role={codeMessage ? 'alert' : undefined}>
        {codeMessage ?? (checking && !check ? 'checking code...' : valid ? 'Valid code: press APPLY.' : '')}
      </p>
      <div className="code-applied">
        <p>{codeAppliedText(a.discount_code)}</p>
        {a.discount_code ? (
          <button type="button" className="link" disabled={busy} onClick={removeCode}>
            REMOVE CODE
          </button>
        ) : null}
      </div>

      <form className="inline-form" onSubmit={applyCredit}>
        <label>
          Credit to apply ({formatMoney(availableCents)} available)
          <input
            inputMode="decimal"
            value={creditTyped}
            aria-invalid={creditMessage ? true : undefined}
            aria-describedby="credit-message"
            onChange={(e) => {
              setCreditTyped(e.target.value);
              setCreditError(null);
            }}
          />
        </label>
        <button type="submit" className="button" disabled={credit.kind !== 'ok' || busy}>
          APPLY<span className="visually-hidden"> CREDIT</span>
        </button>
      </form>
      <p id="credit-message" className={creditMessage ? 'field-error' : 'muted'} role={creditMessage ? 'alert' : undefined}>
        {creditMessage ?? `Credit applied: ${formatMoney(toCents(a.credit_applied))}`}
      </p>
    </section>
  );
}
