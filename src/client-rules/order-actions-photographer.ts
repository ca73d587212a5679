/**
 * The photographer's own actions on an order (issue 13): reorder, cancel within the window, and
 * the colour-correction choice. Pure rules; the order detail and checkout show them.
 */
import { formatMoney, toCents, type Cents } from '../domain/money.ts';

export type ColorCorrection = 'lab' | 'as_is';

/** The choice as the photographer reads it, with what it means for their prints. */
export const COLOR_CORRECTION_CHOICES: readonly { value: ColorCorrection; label: string; hint: string }[] = [
  { value: 'lab', label: 'Lab corrects colour', hint: 'Our printers balance colour and density on each photo before printing.' },
  { value: 'as_is', label: 'Print as is', hint: 'Printed exactly as your files are: choose this when you have colour-corrected them on a calibrated screen.' },
];

export const colorCorrectionLabel = (value: string | null | undefined): string =>
  COLOR_CORRECTION_CHOICES.find((c) => c.value === value)?.label ?? COLOR_CORRECTION_CHOICES[0]?.label ?? '';

export const isColorCorrection = (value: string): value is ColorCorrection => value === 'lab' || value === 'as_is';

/** Only an open order's choice can change (the lab may have printed the others). */
export const canChooseColorCorrection = (status: string): boolean => status === 'open';

/** REORDER is offered on every order that is no longer open (an open one is simply continued). */
export const canReorder = (status: string): boolean => status !== 'open';

// As the server's limit on an order name (order-routes.ts).
export const ORDER_NAME_MAX = 120;
const REORDER_SUFFIX = ' (reorder)';

/** The new order's suggested name: the old one with ' (reorder)', cut to fit the limit. */
export function reorderName(orderName: string): string {
  const base = orderName.trim().replace(/ \(reorder\)$/, '');
  return `${base.slice(0, ORDER_NAME_MAX - REORDER_SUFFIX.length)}${REORDER_SUFFIX}`;
}

/** Statuses in which the lab is working on (or has finished) the order. */
const STARTED = new Set(['printing', 'framing', 'shipped']);

export type Cancellation =
  /** Nothing to say: open (not paid yet) or already cancelled. */
  | { kind: 'none' }
  /** CANCEL ORDER is offered until `until`. */
  | { kind: 'offer'; until: Date }
  | { kind: 'closed'; reason: string };

export const CANCEL_CLOSED_PREFIX = 'This order can no longer be cancelled: ';

/**
 * Whether the photographer may cancel now (docs/api.md §6: while paid, within the window
 * after payment), and why not. The server decides again on the call; this only keeps the button
 * from being offered when it would be refused.
 */
export function cancellation(order: { status: string; paid_at?: string | null; cancel_until?: string | null }, now: Date): Cancellation {
  if (order.status === 'open' || order.status === 'cancelled') return { kind: 'none' };
  if (STARTED.has(order.status)) return { kind: 'closed', reason: `${CANCEL_CLOSED_PREFIX}the lab has started it.` };
  const until = order.cancel_until ? new Date(order.cancel_until) : null;
  if (order.status === 'paid' && until && now.getTime() < until.getTime()) return { kind: 'offer', until };
  if (order.status === 'paid' && until && order.paid_at) {
    const minutes = Math.round((until.getTime() - new Date(order.paid_at).getTime()) / 60_000);
    return { kind: 'closed', reason: `${CANCEL_CLOSED_PREFIX}the ${minutes} minutes after payment have passed.` };
  }
  return { kind: 'none' };
}

/** What a cancellation gives back: the card's charge less earlier refunds, and the credit spent. */
export function cancelRefund(order: { total: number; refund_amount?: number; credit_applied: number }): { cardCents: Cents; creditCents: Cents } {
  return { cardCents: Math.max(0, toCents(order.total) - toCents(order.refund_amount ?? 0)), creditCents: toCents(order.credit_applied) };
}

/** The confirmation's words: what happens, and the money coming back. */
export function cancelConfirmText(order: { order_name: string; total: number; refund_amount?: number; credit_applied: number }): string {
  const { cardCents, creditCents } = cancelRefund(order);
  const back = [
    ...(cardCents > 0 ? [`${formatMoney(cardCents)} is refunded to the card you paid with (it shows on your statement within 5 to 10 business days)`] : []),
    ...(creditCents > 0 ? [`${formatMoney(creditCents)} of credit returns to your account`] : []),
  ];
  return `${order.order_name} will not be printed. ${back.length ? `${back.join(', and ')}.` : 'Nothing was charged.'} This cannot be undone.`;
}

/** '10:42 AM' in the photographer's own time: the end of the window. */
export const clockTime = (at: Date): string => at.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
