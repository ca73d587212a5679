/** The card payment provider behind saved cards and checkout (DESIGN.md §2). */
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

export interface Payments {
  readonly name: 'sandbox' | 'stripe';
  /** For the browser's card field: Stripe's publishable key, or null for the sandbox's own field. */
  readonly publishableKey: string | null;
  /** Turns a card token from the card field into a card saved for this customer. */
  saveCard(customer: { guid: string; email: string; customerId: string | null }, tokenId: string): Promise<SavedCard>;
}

/** A refusal by the card provider, shown to the photographer under the card field. */
export class CardError extends Error {}
