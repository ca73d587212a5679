import { allInCostFromWire, type AllInWire } from '../domain/all-in-cost.ts';
import { toCents, type Cents } from '../domain/money.ts';

/**
 * The checkout's rules (docs/orders.md §2 Checkout details, Checkout final; §4 Checkout readiness,
 * Final-step guards, Boutique packaging, Discount box, Credit box; §5; §9). Every figure comes
 * from the lab (docs/lab-rules.md §3): these rules read them, they never compute a price.
 */

export const INVALID_DISCOUNT_CODE = 'This is not a valid discount code.';
export const CREDIT_OVER_LIMIT = 'You do not have this much credit available.';
export const NONE_SELECTED = 'NONE SELECTED';
export const LOCAL_PICKUP = 'LOCAL PICKUP';
export const NO_BOUTIQUE_PACKAGING = 'NO BOUTIQUE PACKAGING';
export const CHECKOUT_NEEDS_CONNECTION =
  'Checkout needs a connection. Your cart is kept on this device; you can check out as soon as the lab can be reached.';

/** A discount code is checked with the lab once it has this many characters (docs/orders.md §9). */
export const DISCOUNT_CHECK_FROM = 4;
/** The boutique packaging note's limit (docs/orders.md §5, §9). */
export const BOUTIQUE_NOTE_MAX = 300;

/**
 * What the checkout's rules read of the order's shipping address. The wire's address is
 * ShippingAddress in src/contract/shapes.ts (the lab always sends its zip), which fits this; the
 * domain names only the fields it reads, since it imports nothing outside itself.
 */
export type AddressToShow = { guid: string; recipient: string | null; street: string; street_2: string | null; city: string; state_province: string; zip: string };

/** The photographer's client a drop-ship order goes to, as the lab answers it. */
export type ClientToShow = { recipient: string; street: string; street_2: string | null; city: string; state_province: string; zip: string };

export const DROP_SHIP_TO_CLIENT = 'DROP-SHIP TO YOUR CLIENT';

/** The client's name and address as lines: name, street, street 2 (when there is one), 'city, state zip'. */
export const clientLines = (c: ClientToShow): string[] =>
  [c.recipient, c.street, c.street_2?.trim() || '', `${c.city}, ${c.state_province} ${c.zip}`].filter((l) => l !== '');

/** What the rules read of a checkout order: the lab's attributes (money in dollars) and its line count. */
export interface CheckoutFacts {
  status: string;
  stripe_order_confirmation: string | null;
  /** When the order was paid; an order the credit paid in full has no provider confirmation. */
  paid_at?: string | null;
  lineItemCount: number;
  local_pickup: boolean;
  shipping_address: AddressToShow | null;
  /** Drop-ship: the photographer's client the order ships to instead (issue 34). */
  drop_ship_address?: ClientToShow | null | undefined;
  selected_card_to_use: string | null;
  credit_applied: number;
  discount: number;
  total: number;
}

const cents = (dollars: number): Cents => toCents(dollars);

/**
 * Nothing is left to charge: the credit (with any discount) pays for everything. The spec says
 * 'credit applied equals subtotal plus shipping'; the lab clamps the credit to what is owed after
 * the discount (pricing.ts), so "the lab's total is zero" is that test with a discount too, and
 * the one the lab applies before it charges (no card needed).
 */
export const creditCoversAll = (o: Pick<CheckoutFacts, 'total'>): boolean => cents(o.total) === 0;

export const hasCard = (o: Pick<CheckoutFacts, 'selected_card_to_use'>) => Boolean(o.selected_card_to_use);
// A drop-ship goes to the client's address, so it needs none of the photographer's.
const hasAddress = (o: Pick<CheckoutFacts, 'shipping_address' | 'drop_ship_address'>) => Boolean(o.shipping_address?.guid) || Boolean(o.drop_ship_address);

/**
 * REVIEW & CONFIRM may go on (docs/orders.md §4 Checkout readiness): a card and a shipping address; or
 * the credit covers everything; or a card and local pickup.
 */
export function checkoutReady(o: Pick<CheckoutFacts, 'selected_card_to_use' | 'shipping_address' | 'drop_ship_address' | 'local_pickup' | 'credit_applied' | 'total'>): boolean {
  return (hasCard(o) && hasAddress(o)) || creditCoversAll(o) || (hasCard(o) && o.local_pickup);
}

/**
 * PLACE ORDER is active (docs/orders.md §4): the order is open, it has somewhere to go (a shipping
 * address, or local pickup: the spec's readiness rule takes a pickup with a card, so a pickup
 * needs no address here either), and a card is selected or the credit covers everything.
 */
export function canPlaceOrder(o: Pick<CheckoutFacts, 'status' | 'shipping_address' | 'drop_ship_address' | 'local_pickup' | 'selected_card_to_use' | 'credit_applied' | 'total'>): boolean {
  return o.status === 'open' && (hasAddress(o) || o.local_pickup) && (hasCard(o) || creditCoversAll(o));
}

/**
 * SHIPPING TO's lines (docs/orders.md §2 Checkout final): LOCAL PICKUP; NONE SELECTED; a drop-ship's
 * client (said so, then their name and address); or the name (recipient, else the client's name,
 * else the photographer's), street, street 2, 'city, state zip'.
 */
export function shippingToLines(o: {
  local_pickup: boolean;
  shipping_address: AddressToShow | null;
  drop_ship_address?: ClientToShow | null | undefined;
  client_name: string | null;
  photographer_name: string | null;
}): string[] {
  if (o.local_pickup) return [LOCAL_PICKUP];
  const client = o.drop_ship_address;
  if (client) return [DROP_SHIP_TO_CLIENT, ...clientLines(client)];
  const a = o.shipping_address;
  if (!a) return [NONE_SELECTED];
  const name = [a.recipient, o.client_name, o.photographer_name].map((n) => n?.trim() ?? '').find((n) => n !== '');
  const cityLine = `${a.city}, ${a.state_province} ${a.zip}`.trim();
  return [name, a.street, a.street_2?.trim() || undefined, cityLine].filter((l): l is string => typeof l === 'string' && l !== '');
}

/** 'CODE APPLIED: <code or NONE SELECTED>' (docs/orders.md §2 Checkout details). */
export const codeAppliedText = (code: { code: string } | null): string => `CODE APPLIED: ${code?.code || NONE_SELECTED}`;

/** DISCOUNT AND CREDIT APPLIED: the credit plus the discount, in cents. */
export const discountAndCreditCents = (o: Pick<CheckoutFacts, 'discount' | 'credit_applied'>): Cents => cents(o.discount) + cents(o.credit_applied);

/** A discount code as typed, as the lab keeps it (upper case, no surrounding spaces). */
export const normaliseDiscountCode = (typed: string): string => typed.trim().toUpperCase();

/** The discount box asks the lab about a code only from 4 characters; below that its error clears. */
export const shouldCheckDiscountCode = (typed: string): boolean => normaliseDiscountCode(typed).length >= DISCOUNT_CHECK_FROM;

export type CreditCheck = { kind: 'none' } | { kind: 'over'; message: string } | { kind: 'ok'; cents: Cents };

/**
 * The credit box (docs/orders.md §5): text that is not an amount (or has more than 2 decimals) gives no
 * error and nothing to apply; an amount above the available credit, or any amount when none is
 * available, gives 'You do not have this much credit available.'.
 */
export function checkCredit(typed: string, availableCents: Cents): CreditCheck {
  const text = typed.trim().replace(/^\$/, '');
  if (!/^\d+(\.\d{0,2})?$|^\.\d{1,2}$/.test(text)) return { kind: 'none' };
  const amount = toCents(text);
  if (availableCents <= 0 || amount > availableCents) return { kind: 'over', message: CREDIT_OVER_LIMIT };
  return { kind: 'ok', cents: amount };
}

/** The boutique note's counter 'n/300' and whether SAVE may be pressed (not while empty). */
export function boutiqueNote(note: string): { counter: string; canSave: boolean } {
  const n = note.length;
  return { counter: `${n}/${BOUTIQUE_NOTE_MAX}`, canSave: note.trim() !== '' && n <= BOUTIQUE_NOTE_MAX };
}

/** The new-address form of checkout details (docs/orders.md §3: business name and phone are not sent). */
export interface NewAddressForm {
  firstName: string;
  lastName: string;
  businessName: string;
  street: string;
  street2: string;
  city: string;
  state: string;
  zip: string;
  phone: string;
}

export const EMPTY_ADDRESS_FORM: NewAddressForm = { firstName: '', lastName: '', businessName: '', street: '', street2: '', city: '', state: '', zip: '', phone: '' };

/** The spec's minimum zip length (docs/orders.md §9). */
export const ZIP_MIN = 5;

/** SAVE is enabled when first and last name, street, state and city are filled and the zip has 5+ characters (docs/orders.md §5). */
export const addressFormReady = (f: NewAddressForm): boolean =>
  [f.firstName, f.lastName, f.street, f.state, f.city].every((v) => v.trim() !== '') && f.zip.trim().length >= ZIP_MIN;

/** An address as a form holds it, before it is trimmed and sent. */
export interface AddressFields {
  recipient: string;
  street: string;
  street2: string;
  city: string;
  state: string;
  zip: string;
}

/**
 * POST /addresses for an order: the address, trimmed, set on that order in the same call
 * (docs/lab-rules.md §3); checkout's new address and the admin's correction alike.
 */
export function orderAddressBody(a: AddressFields, orderGuid: string) {
  return {
    recipient_name: a.recipient.trim(),
    street_address: a.street.trim(),
    ...(a.street2.trim() ? { street_address_two: a.street2.trim() } : {}),
    city: a.city.trim(),
    state: a.state.trim(),
    zip: a.zip.trim(),
    lab_order_id: orderGuid,
    update_address_on_order: true as const,
  };
}

/** The new-address payload (docs/orders.md §3): the recipient is the first and last name. */
export const newAddressPayload = (f: NewAddressForm, orderGuid: string) =>
  orderAddressBody({ ...f, recipient: `${f.firstName.trim()} ${f.lastName.trim()}` }, orderGuid);

/**
 * The lab's figures as the summary shows them: the all-in cost (src/domain/all-in-cost.ts), the
 * same lines as the receipt and the order detail, discount and credit as deductions.
 */
export const summaryRows = (o: AllInWire) => allInCostFromWire(o).map((l) => ({ label: l.label, detail: l.detail, text: l.text }));
