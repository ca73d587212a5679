import { Stripe } from 'stripe';
import { CardError, RefundError, type ChargeRecord, type Payments, type RefundRecord, type SavedCard } from './payments.ts';

// How far back recovery looks among a customer's payments: a pending payment is settled within
// minutes (housekeeping runs every minute), a week covers a lab that was down for days.
const FIND_CHARGE_DAYS = 7;

const DECLINED = 'Your card was declined.';
/** 3-D Secure asks the photographer's bank, in the browser; the card field does not offer it yet. */
export const NEEDS_BANK_CONFIRMATION = "This card needs its bank's confirmation, which this lab cannot ask for yet. Please use another card.";

/** A refusal (declined, amount below Stripe's minimum, card gone): Stripe made nothing. */
const refusal = (err: unknown) => err instanceof Stripe.errors.StripeCardError || err instanceof Stripe.errors.StripeInvalidRequestError;

/** A charge of the Charges API: made before PaymentIntents (legacy), found by recovery only. */
const legacyChargeRecord = (charge: Stripe.Charge): ChargeRecord => ({
  id: charge.id,
  // A declined charge is kept by Stripe with status 'failed'.
  status: charge.status === 'failed' ? 'declined' : 'succeeded',
  amountCents: charge.amount,
  message: charge.failure_message ?? null,
});

/**
 * What a PaymentIntent came to. Its id for the lab is its charge (`latest_charge`), not the
 * PaymentIntent: orders paid before PaymentIntents hold charge ids too, so refunds, their
 * recovery and the order's confirmation keep one kind of id (refunds.create takes `charge`).
 * Still in flight ('processing'): no answer yet, an error, so the payment stays pending.
 */
function intentRecord(intent: Stripe.PaymentIntent): ChargeRecord {
  const charge = typeof intent.latest_charge === 'string' ? intent.latest_charge : (intent.latest_charge?.id ?? intent.id);
  if (intent.status === 'succeeded') return { id: charge, status: 'succeeded', amountCents: intent.amount_received || intent.amount, message: null };
  if (intent.status === 'processing') throw new Error(`PaymentIntent ${intent.id} is still processing`);
  // Off session, no one can answer the bank: a PaymentIntent waiting for an action never completes.
  const message = intent.status === 'requires_action' ? NEEDS_BANK_CONFIRMATION : (intent.last_payment_error?.message ?? DECLINED);
  return { id: charge, status: 'declined', amountCents: intent.amount, message };
}

/**
 * Stripe, when STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are set: a card is a PaymentMethod
 * saved to the photographer's Stripe customer through a SetupIntent (checked by the bank as it is
 * saved), and charged off session through a PaymentIntent.
 */
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
  const since = () => Math.floor(Date.now() / 1000) - FIND_CHARGE_DAYS * 24 * 60 * 60;
  const searchQuery = (idempotencyKey: string) => `metadata['idempotency_key']:'${idempotencyKey.replace(/'/g, '')}'`;

  return {
    name: 'stripe',
    publishableKey: opts.publishableKey,
    async saveCard(customer, tokenId): Promise<SavedCard> {
      try {
        // One Stripe customer per photographer, made once (the idempotency key makes retries safe).
        const customerId =
          customer.customerId ??
          (await stripe.customers.create({ email: customer.email, metadata: { guid: customer.guid } }, { idempotencyKey: `customer-${customer.guid}` })).id;
        // The card field's token becomes a PaymentMethod (a token is used once: the key lets a
        // retry after a lost answer get the same one).
        const method = await stripe.paymentMethods.create({ type: 'card', card: { token: tokenId } }, { idempotencyKey: `payment-method-${customer.guid}-${tokenId}` });
        if (!method.card) throw new CardError('This payment method is not a card.');
        // The bank checks the card as it is saved for later charges: a declined card is never saved.
        // Cards only (allowed_payment_method_types, once payment_method_types): with the default
        // automatic payment methods, confirming would also ask for a return_url for redirects.
        const setup = await stripe.setupIntents.create(
          { customer: customerId, payment_method: method.id, confirm: true, usage: 'off_session', allowed_payment_method_types: ['card'] },
          { idempotencyKey: `setup-${customer.guid}-${tokenId}` },
        );
        if (setup.status === 'requires_action') throw new CardError(NEEDS_BANK_CONFIRMATION);
        if (setup.status !== 'succeeded') throw new CardError(setup.last_setup_error?.message ?? DECLINED);
        const { brand, last4, exp_month, exp_year } = method.card;
        return { providerCardId: method.id, brand: brand.toLowerCase(), last4, expMonth: exp_month, expYear: exp_year, customerId };
      } catch (err) {
        if (refusal(err)) throw new CardError((err as Error).message);
        throw err;
      }
    },

    async charge(request) {
      try {
        // providerCardId is a PaymentMethod (pm_…), or a card saved before SetupIntents as a
        // customer source (card_…): Stripe takes a card source as a PaymentIntent's
        // payment_method, so those cards keep being charged without being saved again.
        const intent = await stripe.paymentIntents.create(
          {
            amount: request.amountCents,
            currency: 'usd',
            ...(request.customerId ? { customer: request.customerId } : {}),
            payment_method: request.providerCardId,
            allowed_payment_method_types: ['card'],
            // The photographer is not there to answer the bank: charged as a card saved for later.
            off_session: true,
            confirm: true,
            description: request.description,
            // The key in the metadata too: recovery finds the PaymentIntent by it.
            metadata: { ...request.metadata, idempotency_key: request.idempotencyKey },
          },
          // The SDK retries a lost connection with this same key: Stripe charges once.
          { idempotencyKey: request.idempotencyKey },
        );
        const record = intentRecord(intent);
        if (record.status === 'declined') throw new CardError(record.message ?? DECLINED);
        return record;
      } catch (err) {
        // A decline answers 402 with the PaymentIntent left unpaid: nothing was charged.
        if (refusal(err)) throw new CardError((err as Error).message);
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
      // The PaymentIntent made under the key; else a charge of the Charges API, for a payment
      // left pending before the lab charged through PaymentIntents.
      if (hints?.customerId) {
        // The customer's recent ones, read straight from Stripe (search can lag a minute).
        for await (const intent of stripe.paymentIntents.list({ customer: hints.customerId, created: { gte: since() }, limit: 100 })) {
          if (intent.metadata?.idempotency_key === idempotencyKey) return intentRecord(intent);
        }
        for await (const charge of stripe.charges.list({ customer: hints.customerId, created: { gte: since() }, limit: 100 })) {
          if (charge.metadata?.idempotency_key === idempotencyKey && !charge.payment_intent) return legacyChargeRecord(charge);
        }
        return null;
      }
      const [intent] = (await stripe.paymentIntents.search({ query: searchQuery(idempotencyKey), limit: 1 })).data;
      if (intent) return intentRecord(intent);
      const [charge] = (await stripe.charges.search({ query: searchQuery(idempotencyKey), limit: 1 })).data;
      return charge && !charge.payment_intent ? legacyChargeRecord(charge) : null;
    },
  };
}
