import { Stripe } from 'stripe';
import { CardError, RefundError, type ChargeRecord, type Payments, type RefundRecord, type SavedCard } from './payments.ts';

// How far back recovery looks among a customer's charges: a pending payment is settled within
// minutes (housekeeping runs every minute), a week covers a lab that was down for days.
const FIND_CHARGE_DAYS = 7;

const chargeRecord = (charge: Stripe.Charge): ChargeRecord => ({
  id: charge.id,
  // A declined charge is kept by Stripe with status 'failed'.
  status: charge.status === 'failed' ? 'declined' : 'succeeded',
  amountCents: charge.amount,
  message: charge.failure_message ?? null,
});

/** Stripe, when STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are set: cards are Stripe customer sources. */
export function stripePayments(opts: { secretKey: string; publishableKey: string; apiUrl?: string | undefined }): Payments {
  const url = opts.apiUrl ? new URL(opts.apiUrl) : null;
  const stripe = new Stripe(opts.secretKey, {
    maxNetworkRetries: 2,
    // Each try gives up after 15 s (the SDK's default is 80 s): with its retries a charge is
    // answered within a minute, before recovery (checkout-recovery.ts) would settle it instead.
    timeout: 15_000,
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

    async charge(request) {
      try {
        const charge = await stripe.charges.create(
          {
            amount: request.amountCents,
            currency: 'usd',
            ...(request.customerId ? { customer: request.customerId } : {}),
            source: request.providerCardId,
            description: request.description,
            // The key in the metadata too: recovery finds the charge by it.
            metadata: { ...request.metadata, idempotency_key: request.idempotencyKey },
          },
          // The SDK retries a lost connection with this same key: Stripe charges once.
          { idempotencyKey: request.idempotencyKey },
        );
        if (charge.status === 'failed') throw new CardError(charge.failure_message ?? 'Your card was declined.');
        return chargeRecord(charge);
      } catch (err) {
        // A refusal (declined, amount below Stripe's minimum, card gone): nothing was charged.
        if (err instanceof Stripe.errors.StripeCardError || err instanceof Stripe.errors.StripeInvalidRequestError) throw new CardError(err.message);
        throw err;
      }
    },

    async refund(request): Promise<RefundRecord> {
      try {
        const refund = await stripe.refunds.create(
          { charge: request.chargeId, amount: request.amountCents, metadata: { ...request.metadata, idempotency_key: request.idempotencyKey } },
          // A retried refund with this key is the same refund: Stripe gives the money back once.
          { idempotencyKey: request.idempotencyKey },
        );
        return { id: refund.id, amountCents: refund.amount };
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError) throw new RefundError(err.message);
        throw err;
      }
    },

    async findRefund(idempotencyKey, hints) {
      // A charge's refunds, read straight from Stripe (a list, not search: no lag); refund()
      // tags each with its key in metadata.
      for await (const refund of stripe.refunds.list({ charge: hints.chargeId, limit: 100 })) {
        if (refund.metadata?.idempotency_key === idempotencyKey) return { id: refund.id, amountCents: refund.amount };
      }
      return null;
    },

    async findCharge(idempotencyKey, hints) {
      if (hints?.customerId) {
        // The customer's recent charges: read straight from Stripe (search can lag a minute).
        const since = Math.floor(Date.now() / 1000) - FIND_CHARGE_DAYS * 24 * 60 * 60;
        for await (const charge of stripe.charges.list({ customer: hints.customerId, created: { gte: since }, limit: 100 })) {
          if (charge.metadata?.idempotency_key === idempotencyKey) return chargeRecord(charge);
        }
        return null;
      }
      const found = await stripe.charges.search({ query: `metadata['idempotency_key']:'${idempotencyKey.replace(/'/g, '')}'`, limit: 1 });
      const [charge] = found.data;
      return charge ? chargeRecord(charge) : null;
    },
  };
}
