/** The card payment provider behind saved cards and checkout (docs/architecture.md §2). */
export interface SavedCard {
  providerCardId: string;
  brand: string;
  last4: string;
  expMonth: number | null;
  expYear: number | null;
  sandboxBehaviour?: 'succeeds' | 'declines';
  /** The provider's customer the card now belongs to (kept on the user for next time). */
  customerId?: string;
}

/** One charge of a saved card. */
export interface ChargeRequest {
  /** The provider's customer the card belongs to (Stripe); null for the sandbox. */
  customerId: string | null;
  providerCardId: string;
  amountCents: number;
  /**
   * Derived from the order and the attempt: the provider answers a repeated key with the first
   * charge instead of charging again, and recovery finds the charge by it.
   */
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
}

/** A charge as the provider recorded it. */
export interface ChargeRecord {
  id: string;
  status: 'succeeded' | 'declined';
  amountCents: number;
  /** The provider's words for a decline. */
  message: string | null;
}

export interface Payments {
  readonly name: 'sandbox' | 'stripe';
  /** For the browser's card field: Stripe's publishable key, or null for the sandbox's own field. */
  readonly publishableKey: string | null;
  /** Turns a card token from the card field into a card saved for this customer. */
  saveCard(customer: { guid: string; email: string; customerId: string | null }, tokenId: string): Promise<SavedCard>;
  /** Charges a saved card once per idempotency key; a refusal is a CardError with the provider's message. */
  charge(request: ChargeRequest): Promise<ChargeRecord>;
  /**
   * The provider's record of the charge made with this idempotency key, or null if it made none
   * (crash recovery). The customer, when known, lets Stripe look among that customer's charges.
   */
  findCharge(idempotencyKey: string, hints?: { customerId?: string | null | undefined }): Promise<ChargeRecord | null>;
  /**
   * Gives back part or all of a charge, once per idempotency key (a repeated key answers the first
   * refund). More than what is left of the charge is a RefundError with the provider's words.
   */
  refund(request: RefundRequest): Promise<RefundRecord>;
  /**
   * The provider's record of the refund made with this idempotency key on this charge, or null if
   * it made none (crash recovery of a refund left pending, refund-recovery.ts).
   */
  findRefund(idempotencyKey: string, hints: { chargeId: string }): Promise<RefundRecord | null>;
}

export interface RefundRequest {
  chargeId: string;
  amountCents: number;
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export interface RefundRecord {
  id: string;
  amountCents: number;
}

/** The provider refused a refund (more than the charge, the charge unknown). */
export class RefundError extends Error {}

/** A refusal by the card provider, shown to the photographer under the card field. */
export class CardError extends Error {}
