import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { getPaymentsConfig, mintSandboxToken } from '../../api/cards.ts';
import { ApiError, NO_RESPONSE_MESSAGE, errorLines } from '../../api/errors.ts';
import { StripeCardField } from './stripe-card-field.tsx';

// A card number has at least 13 digits (the shortest test cards); the CVC at least 3.
const MIN_CARD_DIGITS = 13;
const MIN_CVC_DIGITS = 3;

type Provider = { name: 'sandbox' | 'stripe'; key: string | null };

/**
 * A new card, typed into the payment provider's own field: Stripe Elements when the lab runs on
 * Stripe (its script loads only where this is shown), else the sandbox's clearly marked TEST MODE
 * field. The card becomes a provider token here; `onToken` saves it (account: to the photographer's
 * cards; checkout: for the order). The provider's message shows under the field; a failure of
 * `onToken` shows as `saveErrorText` words it.
 */
export function CardEntry(props: {
  submitLabel: string;
  /** Another action of the screen is running: the submit waits. */
  disabled?: boolean;
  onToken: (tokenId: string) => Promise<void>;
  saveErrorText?: (err: unknown) => string;
}) {
  const { submitLabel, disabled = false, onToken, saveErrorText = (err: unknown) => errorLines(err).join(' ') } = props;
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [providerError, setProviderError] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [provider, setProvider] = useState<Provider | null>(null);
  const [stripeTokenize, setStripeTokenize] = useState<(() => Promise<string>) | null>(null);
  const onStripeReady = useCallback((tokenize: () => Promise<string>) => setStripeTokenize(() => tokenize), []);

  useEffect(() => {
    let live = true;
    getPaymentsConfig().then(
      (c) => live && setProvider({ name: c.provider, key: c.publishable_key }),
      (err: unknown) => live && setProviderError(errorLines(err).join(' ')),
    );
    return () => {
      live = false;
    };
  }, []);
  const expiryMatch = /^(\d{2})\s*\/\s*(\d{2})$/.exec(expiry);
  const ready = number.replace(/\s/g, '').length >= MIN_CARD_DIGITS && expiryMatch !== null && cvc.length >= MIN_CVC_DIGITS;

  /** A card token from the provider's own field: Stripe Elements, or the sandbox TEST MODE field. */
  const tokenize = async (): Promise<string> => {
    if (provider?.name === 'stripe') {
      if (!stripeTokenize) throw new Error('The card field is still loading.');
      return stripeTokenize();
    }
    if (!expiryMatch) throw new Error('Enter the expiry as MM/YY.');
    return (await mintSandboxToken({ number, exp_month: Number(expiryMatch[1]), exp_year: Number(expiryMatch[2]), cvc })).id;
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setProviderError(null);
    setSaveError(null);
    let tokenId: string;
    try {
      tokenId = await tokenize();
    } catch (err) {
      // The card provider's own message goes under the card field.
      setProviderError(err instanceof ApiError ? (err.kind === 'server' ? err.message : NO_RESPONSE_MESSAGE) : err instanceof Error ? err.message : String(err));
      setBusy(false);
      return;
    }
    try {
      await onToken(tokenId);
      setNumber('');
      setExpiry('');
      setCvc('');
    } catch (err) {
      setSaveError(saveErrorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card-field" onSubmit={(e) => void onSubmit(e)}>
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
          <div className="field-grid">
            <label>
              Card number
              <input inputMode="numeric" autoComplete="cc-number" value={number} onChange={(e) => setNumber(e.target.value.replace(/[^\d ]/g, ''))} />
            </label>
            <label>
              Expiry (MM/YY)
              <input inputMode="numeric" autoComplete="cc-exp" placeholder="MM/YY" value={expiry} onChange={(e) => setExpiry(e.target.value)} />
            </label>
            <label>
              CVC
              <input inputMode="numeric" autoComplete="cc-csc" maxLength={4} value={cvc} onChange={(e) => setCvc(e.target.value.replace(/\D/g, ''))} />
            </label>
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
