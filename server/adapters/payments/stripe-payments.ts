import { Stripe } from 'stripe';
import { CardError, type Payments, type SavedCard } from './payments.ts';

/** Stripe, when STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are set: cards are Stripe customer sources. */
export function stripePayments(opts: { secretKey: string; publishableKey: string; apiUrl?: string | undefined }): Payments {
  const url = opts.apiUrl ? new URL(opts.apiUrl) : null;
  const stripe = new Stripe(opts.secretKey, {
    maxNetworkRetries: 2,
    telemetry: false,
    ...(url ? { host: url.hostname, port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80), protocol: url.protocol === 'https:' ? 'https' : 'http' } : {}),
  });
  return {
    name: 'stripe',
    publishableKey: opts.publishableKey,
    async saveCard(customer, tokenId): Promise<SavedCard> {
      try {
        // One Stripe customer per photographer, made once (the idempotency key makes retries safe).
        const customerId =
          customer.customerId ??
          (await stripe.customers.create({ email: customer.email, metadata: { guid: customer.guid } }, { idempotencyKey: `customer-${customer.guid}` })).id;
        const source = await stripe.customers.createSource(customerId, { source: tokenId }, { idempotencyKey: `source-${customer.guid}-${tokenId}` });
        if (source.object !== 'card') throw new CardError('This payment method is not a card.');
        return { providerCardId: source.id, brand: source.brand.toLowerCase(), last4: source.last4, expMonth: source.exp_month, expYear: source.exp_year, customerId };
      } catch (err) {
        if (err instanceof Stripe.errors.StripeCardError || err instanceof Stripe.errors.StripeInvalidRequestError) throw new CardError(err.message);
        throw err;
      }
    },
  };
}
