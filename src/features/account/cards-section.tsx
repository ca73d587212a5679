import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { Profile } from '../../api/account.ts';
import { createCard, getPaymentsConfig, makePrimaryCard, mintSandboxToken, removeCard } from '../../api/cards.ts';
import { ApiError, NO_RESPONSE_MESSAGE, errorLines } from '../../api/errors.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import { PrimaryChooser } from './primary-chooser.tsx';
import { StripeCardField } from './stripe-card-field.tsx';

// 'Card Saved' shows for 3 seconds (accounts.md §9).
const CARD_SAVED_MS = 3_000;

/** CREDIT CARDS: saved cards, the primary card, removal, and the sandbox's TEST MODE card field. */
export function CardsSection({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [providerError, setProviderError] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [provider, setProvider] = useState<{ name: 'sandbox' | 'stripe'; key: string | null } | null>(null);
  const [stripeTokenize, setStripeTokenize] = useState<(() => Promise<string>) | null>(null);
  const onStripeReady = useCallback((tokenize: () => Promise<string>) => setStripeTokenize(() => tokenize), []);

  useEffect(() => {
    getPaymentsConfig().then(
      (c) => setProvider({ name: c.provider, key: c.publishable_key }),
      (err: unknown) => setProviderError(errorLines(err).join(' ')),
    );
  }, []);
  const expiryMatch = /^(\d{2})\s*\/\s*(\d{2})$/.exec(expiry);
  const ready = number.replace(/\s/g, '').length >= 13 && expiryMatch !== null && cvc.length >= 3;

  const run = async (action: () => Promise<Profile>) => {
    setBusy(true);
    try {
      onSaved(await action());
    } catch (err) {
      toast.error(errorLines(err));
    } finally {
      setBusy(false);
    }
  };

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
      onSaved(await createCard(tokenId));
      setNumber('');
      setExpiry('');
      setCvc('');
      toast.success('Card Saved', { durationMs: CARD_SAVED_MS });
    } catch (err) {
      setSaveError(
        err instanceof ApiError && err.kind === 'server' ? `Could not save card. Server error: ${[err.message, ...err.moreInfo.filter((m) => m !== err.message)].join(' ')}` : NO_RESPONSE_MESSAGE,
      );
    } finally {
      setBusy(false);
    }
  };

  const removeAll = () =>
    void run(async () => {
      let latest = profile;
      for (const c of profile.cards.data) latest = await removeCard(c.id);
      return latest;
    });

  return (
    <section className="account-section" aria-labelledby="cards">
      <h2 id="cards">CREDIT CARDS</h2>
      {profile.cards.data.length ? (
        <PrimaryChooser
          legend="Primary card"
          name="primary-card"
          items={profile.cards.data.map((c) => ({ id: c.id, label: c.masked_card }))}
          primary={profile.default_card}
          busy={busy}
          onChoose={(id) => void run(() => makePrimaryCard(id))}
          onRemove={(id) => void run(() => removeCard(id))}
          removeAllLabel="REMOVE ALL CARDS"
          onRemoveAll={removeAll}
        />
      ) : (
        <p className="muted">No saved cards yet.</p>
      )}
      <form className="card-field" onSubmit={(e) => void onSubmit(e)}>
        {provider?.name === 'stripe' && provider.key ? (
          <div className="field-grid">
            <StripeCardField publishableKey={provider.key} onReady={onStripeReady} />
            <button type="submit" className="button primary" disabled={!stripeTokenize || busy}>
              SAVE CARD
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
              <button type="submit" className="button primary" disabled={!ready || busy}>
                SAVE CARD
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
    </section>
  );
}
