import { useEffect, useRef, useState } from 'react';
import type { StripeCardElement, Stripe } from '@stripe/stripe-js';

/**
 * Stripe's hosted card field (Elements), when the lab runs on Stripe. Stripe.js is loaded only
 * here, from the pure entry, so no other screen reaches for js.stripe.com.
 */
export function StripeCardField(props: { publishableKey: string; onReady: (tokenize: () => Promise<string>) => void }) {
  const mount = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);
  const { publishableKey, onReady } = props;

  useEffect(() => {
    let card: StripeCardElement | null = null;
    let cancelled = false;
    import('@stripe/stripe-js/pure')
      .then(({ loadStripe }) => loadStripe(publishableKey))
      .then((stripe: Stripe | null) => {
        if (cancelled || !stripe || !mount.current) return;
        card = stripe.elements().create('card', { hidePostalCode: true });
        card.mount(mount.current);
        card.on('change', (e) => setError(e.error?.message ?? null));
        const element = card;
        onReady(async () => {
          const result = await stripe.createToken(element);
          if (result.error) throw new Error(result.error.message ?? 'The card could not be read.');
          return result.token.id;
        });
      })
      .catch(() => !cancelled && setError('The card field could not load. Please check your internet connection and try again.'));
    return () => {
      cancelled = true;
      card?.destroy();
    };
  }, [publishableKey, onReady]);

  return (
    <div>
      <div ref={mount} className="stripe-card" aria-label="Card details" />
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
