/**
 * The blind packing slip (white label, docs/lab-rules.md §9): a drop-shipped order may travel with
 * a slip in the studio's name, logo and return address, with no lab name and no prices. Rules
 * both the server and the screens use.
 */

// A logo prints about two inches wide on the slip: a 2 MB JPEG or PNG is any sensible export of
// it, and small enough to send in one JSON request (base64 adds a third).
export const MAX_LOGO_BYTES = 2 * 1024 * 1024;
export const LOGO_TOO_LARGE = 'The logo is larger than 2 MB. Please export a smaller JPEG or PNG.';
export const BLIND_SLIP_NEEDS_BUSINESS_NAME = 'A blind packing slip shows your business name: add it under BASIC INFORMATION on your account first.';
export const BLIND_SLIP_NOT_ALLOWED = 'A blind packing slip goes only with an order shipped straight to your client: choose SHIP TO MY CLIENT first.';

/** The studio's return address printed on the slip, kept apart from the shipping addresses. */
export interface ReturnAddress {
  name: string;
  street: string;
  street_2: string | null;
  city: string;
  state: string;
  zip: string;
}
export const RETURN_ADDRESS_MAX = { name: 100, street: 200, street_2: 200, city: 100, state: 100, zip: 20 } as const;

/**
 * May this order carry a blind slip? Only an order drop-shipped to the photographer's client: an
 * order coming to the studio needs no disguise, and one picked up at the lab ships nothing.
 */
export function blindSlipAllowed(order: { localPickup: boolean; dropShip: boolean }): boolean {
  return !order.localPickup && order.dropShip;
}

/** The return address as the slip prints it, one line each. */
export function returnAddressLines(a: ReturnAddress): string[] {
  return [a.name, a.street, a.street_2 ?? '', `${a.city}, ${a.state} ${a.zip}`].filter((line) => line.trim() !== '');
}
