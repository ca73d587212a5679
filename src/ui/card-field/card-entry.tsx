import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { CARD_NUMBER, EXPIRY_RULE, cvcProblem, expiryParts, expiryProblem, separatedDigitsProblem } from '../../domain/validation.ts';
import { CheckedField, useFinishedFields } from '../checked-field.tsx';
import { StripeCardField } from './stripe-card-field.tsx';

type SandboxField = 'number' | 'expiry' | 'cvc';
type Check = (typed: string, finished: boolean) => string | null;
/** The TEST MODE field's boxes, in the order they are typed (and the first wrong one focused). */
const SANDBOX_FIELDS: { name: SandboxField; label: string; autoComplete: string; check: Check; placeholder?: string }[] = [
  { name: 'number', label: 'Card number', autoComplete: 'cc-number', check: (typed, finished) => separatedDigitsProblem(typed, finished, CARD_NUMBER) },
  { name: 'expiry', label: 'Expiry (MM/YY)', autoComplete: 'cc-exp', check: expiryProblem, placeholder: 'MM/YY' },
  { name: 'cvc', label: 'CVC', autoComplete: 'cc-csc', check: cvcProblem },
];
const EMPTY_CARD: Record<SandboxField, string> = { number: '', expiry: '', cvc: '' };
const fieldId = (name: SandboxField) => `card-${name}`;

type Provider = { name: 'sandbox' | 'stripe'; key: string | null };

/** The lab's calls and error words the field uses, passed in by the screen (src/api/card-calls.ts). */
export interface CardCalls {
  paymentsConfig(): Promise<{ provider: Provider['name']; publishable_key: string | null }>;
  mintSandboxToken(card: { number: string; exp_month: number; exp_year: number; cvc: string }): Promise<{ id: string }>;
  errorLines(err: unknown): string[];
  /** The card provider's own message for a failed tokenization. */
  providerMessage(err: unknown): string;
}

/**
 * A new card, typed into the payment provider's own field: Stripe Elements when the lab runs on
 * Stripe (its script loads only where this is shown), else the sandbox's clearly marked TEST MODE
 * field. The card becomes a provider token here; `onToken` saves it (account: to the photographer's
 * cards; checkout: for the order). The provider's message shows under the field; a failure of
 * `onToken` shows as `saveErrorText` words it.
 */
export function CardEntry(props: {
  calls: CardCalls;
  submitLabel: string;
  /** Another action of the screen is running: the submit waits. */
  disabled?: boolean;
  onToken: (tokenId: string) => Promise<void>;
  saveErrorText?: (err: unknown) => string;
}) {
  const { calls, submitLabel, disabled = false, onToken, saveErrorText = (err: unknown) => calls.errorLines(err).join(' ') } = props;
  const [card, setCard] = useState(EMPTY_CARD);
  const [providerError, setProviderError] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [provider, setProvider] = useState<Provider | null>(null);
  const [stripeTokenize, setStripeTokenize] = useState<(() => Promise<string>) | null>(null);
  const onStripeReady = useCallback((tokenize: () => Promise<string>) => setStripeTokenize(() => tokenize), []);

  useEffect(() => {
    let live = true;
    calls.paymentsConfig().then(
      (c) => live && setProvider({ name: c.provider, key: c.publishable_key }),
      (err: unknown) => live && setProviderError(calls.errorLines(err).join(' ')),
    );
    return () => {
      live = false;
    };
  }, [calls]);
  const checks = useFinishedFields<SandboxField>();
  // Filled in: the submit may be pressed, and says then which field is wrong.
  const ready = Object.values(card).every((v) => v.trim() !== '');

  /** A card token from the provider's own field: Stripe Elements, or the sandbox TEST MODE field. */
  const tokenize = async (): Promise<string> => {
    if (provider?.name === 'stripe') {
      if (!stripeTokenize) throw new Error('The card field is still loading.');
      return stripeTokenize();
    }
    const parts = expiryParts(card.expiry);
    if (!parts) throw new Error(EXPIRY_RULE);
    return (await calls.mintSandboxToken({ number: card.number.trim(), exp_month: parts.month, exp_year: parts.year, cvc: card.cvc.trim() })).id;
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (provider?.name === 'sandbox') {
      // Nothing goes to the provider while a field is wrong: each says so, the first takes the focus.
      const wrong = SANDBOX_FIELDS.filter((f) => f.check(card[f.name], true));
      if (checks.refuse(wrong.map((f) => ({ field: f.name, id: fieldId(f.name) })))) return;
    }
    setBusy(true);
    setProviderError(null);
    setSaveError(null);
    let tokenId: string;
    try {
      tokenId = await tokenize();
    } catch (err) {
      // The card provider's own message goes under the card field.
      setProviderError(calls.providerMessage(err));
      setBusy(false);
      return;
    }
    try {
      await onToken(tokenId);
      setCard(EMPTY_CARD);
      checks.reset();
    } catch (err) {
      setSaveError(saveErrorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card-field" noValidate onSubmit={(e) => void onSubmit(e)}>
      {provider?.name === 'stripe' && provider.key ? (
        <div className="field-grid">
          <StripeCardField publishableKey={provider.key} onReady={onStripeReady} />
          <button type="submit" className="button primary" disabled={!stripeTokenize || busy || disabled}>
            {submitLabel}
          </button>
        </div>
      ) : null}
      {provider?.name === 'sandbox' ? (
        <>
          <p className="test-mode" role="note">
            TEST MODE: no real card is charged. Use a test card such as 4242 4242 4242 4242.
          </p>
          <div className="field-grid with-messages">
            {SANDBOX_FIELDS.map((f) => (
              <CheckedField
                key={f.name}
                id={fieldId(f.name)}
                label={f.label}
                problem={f.check(card[f.name], checks.finished(f.name))}
                inputMode="numeric"
                autoComplete={f.autoComplete}
                placeholder={f.placeholder}
                value={card[f.name]}
                onChange={(e) => setCard((now) => ({ ...now, [f.name]: e.target.value }))}
                onBlur={() => checks.leave(f.name)}
              />
            ))}
            <button type="submit" className="button primary" disabled={!ready || busy || disabled}>
              {submitLabel}
            </button>
          </div>
        </>
      ) : null}
      {providerError ? (
        <p className="field-error" role="alert">
          {providerError}
        </p>
      ) : null}
      {saveError ? (
        <p className="field-error" role="alert">
          {saveError}
        </p>
      ) : null}
    </form>
  );
}
