import { randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cards, sandboxCardTokens, sandboxCharges, sandboxRefunds } from '../../db/schema.ts';
import { CardError, RefundError, type ChargeRecord, type Payments, type RefundRecord, type SavedCard } from './payments.ts';

export const SANDBOX_DECLINED = 'Your card was declined.';

/**
 * The embedded payment provider: clearly TEST MODE, taking Stripe's public test card numbers and
 * test token ids, so a lab can try the whole flow before it has a Stripe account.
 */
/**
 * What a test card does, as at Stripe: 'succeeds'; 'declines' when charged (it saves: 4000 0000
 * 0000 0341, tok_chargeCustomerFail); 'declined' when saved, so it never becomes a saved card
 * (4000 0000 0000 0002, tok_chargeDeclined: Stripe declines attaching it to a customer).
 */
type Behaviour = 'succeeds' | 'declines' | 'declined';

export const TEST_CARDS: Record<string, { brand: string; behaviour: Behaviour }> = {
  '4242424242424242': { brand: 'visa', behaviour: 'succeeds' },
  '4000056655665556': { brand: 'visa', behaviour: 'succeeds' },
  '5555555555554444': { brand: 'mastercard', behaviour: 'succeeds' },
  '378282246310005': { brand: 'amex', behaviour: 'succeeds' },
  '4000000000000002': { brand: 'visa', behaviour: 'declined' },
  '4000000000000341': { brand: 'visa', behaviour: 'declines' },
};

/** Stripe's public test token ids. */
const TEST_TOKENS: Record<string, { brand: string; last4: string; behaviour: Behaviour }> = {
  tok_visa: { brand: 'visa', last4: '4242', behaviour: 'succeeds' },
  tok_mastercard: { brand: 'mastercard', last4: '4444', behaviour: 'succeeds' },
  tok_chargeDeclined: { brand: 'visa', last4: '0002', behaviour: 'declined' },
  tok_chargeCustomerFail: { brand: 'visa', last4: '0341', behaviour: 'declines' },
};

export const NOT_A_TEST_CARD = 'TEST MODE: this lab takes test cards only. Use a test card such as 4242 4242 4242 4242.';

function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export interface SandboxPayments extends Payments {
  readonly name: 'sandbox';
  mintToken(card: { number: string; exp_month: number; exp_year: number; cvc: string }): Promise<{ id: string; brand: string; last4: string }>;
}

export function sandboxPayments(db: Db, now: () => Date = () => new Date()): SandboxPayments {
  const recorded = async (idempotencyKey: string): Promise<ChargeRecord | null> => {
    const [row] = await db.select().from(sandboxCharges).where(eq(sandboxCharges.idempotencyKey, idempotencyKey));
    return row ? { id: row.id, status: row.status as ChargeRecord['status'], amountCents: row.amountCents, message: row.message } : null;
  };
  // As Stripe does: a declined charge is recorded too, and the refusal is an error.
  const answered = (record: ChargeRecord): ChargeRecord => {
    if (record.status === 'declined') throw new CardError(record.message ?? SANDBOX_DECLINED);
    return record;
  };
  return {
    name: 'sandbox',
    publishableKey: null,

    /** The TEST MODE card field's tokenization, as Stripe.js does it against Stripe. */
    async mintToken(card) {
      const number = card.number.replace(/[\s-]/g, '');
      if (!/^\d{13,19}$/.test(number) || !luhn(number)) throw new CardError('Your card number is incorrect.');
      const today = now();
      const year = card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year;
      if (card.exp_month < 1 || card.exp_month > 12 || year < today.getFullYear() || (year === today.getFullYear() && card.exp_month < today.getMonth() + 1)) {
        throw new CardError("Your card's expiration date is in the past.");
      }
      if (!/^\d{3,4}$/.test(card.cvc)) throw new CardError("Your card's security code is incomplete.");
      const known = TEST_CARDS[number];
      if (!known) throw new CardError(NOT_A_TEST_CARD);
      const id = `tok_sandbox_${randomBytes(12).toString('hex')}`;
      await db.insert(sandboxCardTokens).values({ id, brand: known.brand, last4: number.slice(-4), expMonth: card.exp_month, expYear: year, behaviour: known.behaviour });
      return { id, brand: known.brand, last4: number.slice(-4) };
    },

    /**
     * Charges a card saved through this sandbox: what the test card was made to do ('declines':
     * tok_chargeCustomerFail, 4000 0000 0000 0341). One record per idempotency key: a repeated key
     * answers the first charge, as Stripe does.
     */
    async charge(request) {
      const before = await recorded(request.idempotencyKey);
      if (before) return answered(before);
      const [card] = await db.select({ behaviour: cards.sandboxBehaviour }).from(cards).where(eq(cards.providerCardId, request.providerCardId));
      if (!card) throw new CardError('This card could not be found. Please enter it again.');
      const declined = card.behaviour === 'declines';
      await db
        .insert(sandboxCharges)
        .values({
          idempotencyKey: request.idempotencyKey,
          id: `ch_sandbox_${randomBytes(12).toString('hex')}`,
          customerId: request.customerId,
          providerCardId: request.providerCardId,
          amountCents: request.amountCents,
          status: declined ? 'declined' : 'succeeded',
          message: declined ? SANDBOX_DECLINED : null,
          description: request.description,
          metadata: request.metadata,
        })
        // Two calls with one key at once: the first record stands, both answer it.
        .onConflictDoNothing();
      const record = await recorded(request.idempotencyKey);
      if (!record) throw new Error('sandbox charge not recorded');
      return answered(record);
    },

    findCharge: (idempotencyKey) => recorded(idempotencyKey),

    /** Records a refund of a sandbox charge, never more than what is left of it (as Stripe refuses). */
    async refund(request): Promise<RefundRecord> {
      const known = async () => (await db.select().from(sandboxRefunds).where(eq(sandboxRefunds.idempotencyKey, request.idempotencyKey)))[0];
      const before = await known();
      if (before) return { id: before.id, amountCents: before.amountCents };
      const [charge] = await db.select().from(sandboxCharges).where(eq(sandboxCharges.id, request.chargeId));
      if (!charge || charge.status !== 'succeeded') throw new RefundError(`No such charge: ${request.chargeId}`);
      const [done] = await db.select({ cents: sql<number>`coalesce(sum(${sandboxRefunds.amountCents}), 0)::integer` }).from(sandboxRefunds).where(eq(sandboxRefunds.chargeId, charge.id));
      const left = charge.amountCents - (done?.cents ?? 0);
      if (request.amountCents > left) throw new RefundError(`Refund amount (${request.amountCents}) is greater than unrefunded amount on charge (${left}).`);
      await db
        .insert(sandboxRefunds)
        .values({ idempotencyKey: request.idempotencyKey, id: `re_sandbox_${randomBytes(12).toString('hex')}`, chargeId: charge.id, amountCents: request.amountCents })
        .onConflictDoNothing();
      const row = await known();
      if (!row) throw new Error('sandbox refund not recorded');
      return { id: row.id, amountCents: row.amountCents };
    },

    async findRefund(idempotencyKey, hints) {
      const [row] = await db.select().from(sandboxRefunds).where(eq(sandboxRefunds.idempotencyKey, idempotencyKey));
      return row && row.chargeId === hints.chargeId ? { id: row.id, amountCents: row.amountCents } : null;
    },

    async saveCard(_customer, tokenId): Promise<SavedCard> {
      const fixed = TEST_TOKENS[tokenId];
      if (fixed?.behaviour === 'declined') throw new CardError(SANDBOX_DECLINED);
      if (fixed) return { providerCardId: `card_sandbox_${randomBytes(8).toString('hex')}`, brand: fixed.brand, last4: fixed.last4, expMonth: 12, expYear: now().getFullYear() + 3, sandboxBehaviour: fixed.behaviour };
      // Claimed in one statement, as Stripe uses a token once: of calls racing with one token, one saves it.
      const [token] = await db
        .update(sandboxCardTokens)
        .set({ usedAt: now() })
        .where(and(eq(sandboxCardTokens.id, tokenId), isNull(sandboxCardTokens.usedAt)))
        .returning();
      if (!token) throw new CardError('This card could not be read. Please enter it again.');
      // Checked as it is saved, as Stripe checks a card attached to a customer: never saved.
      if (token.behaviour === 'declined') throw new CardError(SANDBOX_DECLINED);
      return {
        providerCardId: `card_sandbox_${randomBytes(8).toString('hex')}`,
        brand: token.brand,
        last4: token.last4,
        expMonth: token.expMonth,
        expYear: token.expYear,
        sandboxBehaviour: token.behaviour as 'succeeds' | 'declines',
      };
    },
  };
}
