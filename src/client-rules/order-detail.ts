/** Rules of the order detail and its admin panel (docs/orders.md §2 Order detail, §4, §5, §6). */
import { finishingWords, type FinishingCategory } from '../domain/catalogue.ts';
import { orderAddressBody, type AddressFields } from './checkout.ts';
import { toCents, type Cents } from '../domain/money.ts';
import { colorCorrectionLabel } from './order-actions-photographer.ts';
import { ZIP_RULE, isZip } from '../domain/validation.ts';

/** Only an open order goes back to the builder (CONTINUE ORDER). */
export const canContinueOrder = (status: string): boolean => status === 'open';

/** What a photographer reads when the order has no boutique packaging (docs/orders.md §2). */
export const NO_BOUTIQUE_PACKAGING = 'NO BOUTIQUE PACKAGING';

// The server's limits (docs/api.md §6, PATCH types): checked here so a mistake is named before it is sent.
export const TRACKING_URL_MAX = 500;
export const INTERNAL_NOTES_MAX = 5000;

/** A tracking link the lab accepts: http(s), at most 500 characters; '' clears it. Null when fine. */
export function trackingUrlProblem(text: string): string | null {
  const value = text.trim();
  if (value === '') return null;
  if (value.length > TRACKING_URL_MAX) return `A tracking link can be at most ${TRACKING_URL_MAX} characters.`;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return null;
  } catch {
    // not a URL at all: the same message
  }
  return 'Enter the full tracking link, starting with https://.';
}

/**
 * A refund as typed: dollars with at most 2 decimals, more than 0, at most what is left to refund
 * (paid less earlier refunds). Answers the cents to send or why not.
 */
export function refundAmount(text: string, leftCents: Cents): { cents: Cents } | { problem: string } {
  const value = text.trim().replace(/^\$/, '');
  if (!/^\d+(\.\d{1,2})?$/.test(value)) return { problem: 'Enter the refund in dollars, like 12.50.' };
  const cents = toCents(value);
  if (cents <= 0) return { problem: 'A refund must be more than $0.00.' };
  if (cents > leftCents) return { problem: `The refund is more than what is left to refund ($${(leftCents / 100).toFixed(2)}).` };
  return { cents };
}

/** The refund as the wire takes it: a number of dollars with 2 decimals (docs/orders.md §5). */
export const refundDollars = (cents: Cents): number => Number((cents / 100).toFixed(2));

/** A lab's line item's finishing as one line of text (finishingWords). */
export function lineFinishingText(
  finishing: {
    finishing_category: FinishingCategory;
    finishing_service: string;
    formatted_frame_profile: string | null;
    formatted_detail_one: string | null;
    formatted_detail_two: string | null;
    formatted_detail_three: string | null;
  } | null,
): string {
  if (!finishing) return 'None';
  const f = finishing;
  return finishingWords(f.finishing_category, f.finishing_service, f.formatted_frame_profile, [f.formatted_detail_one, f.formatted_detail_two, f.formatted_detail_three]);
}

/** One entry of an order's history as the admin reads it. */
export interface OrderEventLike {
  kind: string;
  from?: string | null;
  to?: string | null;
  detail?: string | null;
}

const EVENT_NAMES: Record<string, string> = {
  status: 'Status',
  urgent: 'Urgent',
  internal_notes: 'Admin note',
  tracking_url: 'Tracking link',
  refund: 'Refund',
  zip: 'Zip file',
  create_zip_file: 'Zip file',
  vendor_send: 'Sent to vendor',
  send_to_api: 'Sent to vendor',
  merge: 'Merged',
  cancel: 'Cancelled',
  reorder: 'Reordered',
  color_correction: 'Colour correction',
  referral_clawback: 'Referral credit',
  shipping_address: 'Shipping address',
  client_address: "Client's address (drop-ship)",
  album: 'Album added',
  vendor_send_failed: 'Vendor send failed',
};

/** 'Status: paid → shipped', 'Refund: 12.50', or the kind itself for one not known here. */
export function eventText(event: OrderEventLike): string {
  const name = EVENT_NAMES[event.kind] ?? event.kind.replace(/_/g, ' ');
  // The photographer's choice in the words they chose it by, not the stored values.
  if (event.kind === 'color_correction') return `${name}: ${colorCorrectionLabel(event.from)} → ${colorCorrectionLabel(event.to)}`;
  // A note's old and new text can be pages long: the note itself shows above the history.
  if (event.kind === 'internal_notes') return `${name} changed`;
  // A vendor send's detail is the whole sentence ('Received by the vendor', 'Vendor send failed after 9 tries: …').
  if ((event.kind === 'vendor_send' || event.kind === 'vendor_send_failed') && event.detail) return event.detail;
  // An unpaid order moved on: the admin's reason with it.
  if (event.kind === 'status' && event.detail) return `${name}: ${event.from ?? '—'} → ${event.to ?? '—'} (${event.detail})`;
  if ((event.from ?? null) !== null || (event.to ?? null) !== null) return `${name}: ${event.from ?? '—'} → ${event.to ?? '—'}`;
  return event.detail ? `${name}: ${event.detail}` : name;
}

/** The admin's shipping-address form (docs/orders.md §6 "edit shipping address"). */
export type AdminAddressForm = AddressFields;

/** The form filled from the order's address (or empty when it has none). */
export function adminAddressForm(a: { recipient: string | null; street: string; street_2: string | null; city: string; state_province: string; zip: string } | null | undefined): AdminAddressForm {
  return { recipient: a?.recipient ?? '', street: a?.street ?? '', street2: a?.street_2 ?? '', city: a?.city ?? '', state: a?.state_province ?? '', zip: a?.zip ?? '' };
}

/**
 * What is wrong with the form, per field, in the lab's words (the same the lab answers): every
 * field but street 2 is needed, the zip is 5 digits (docs/orders.md §5, §9: zip at least 5; the lab
 * ships within the US). Empty when it may be sent.
 */
export function adminAddressProblems(f: AdminAddressForm): Partial<Record<keyof AdminAddressForm, string>> {
  const problems: Partial<Record<keyof AdminAddressForm, string>> = {};
  if (!f.recipient.trim()) problems.recipient = 'Enter the recipient’s name.';
  if (!f.street.trim()) problems.street = 'Enter the street address.';
  if (!f.city.trim()) problems.city = 'Enter the city.';
  if (!f.state.trim()) problems.state = 'Enter the state.';
  if (!isZip(f.zip)) problems.zip = ZIP_RULE;
  return problems;
}

/** POST /addresses as the admin sends it: set on this order only (admin-order-address.ts on the lab). */
export const adminAddressPayload = (f: AdminAddressForm, orderGuid: string) => orderAddressBody(f, orderGuid);
