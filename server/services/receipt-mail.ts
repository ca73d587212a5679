import { asc, eq, inArray } from 'drizzle-orm';
import type { OutgoingMail } from '../adapters/mail/mail-transport.ts';
import { frameProfileWords } from '../../src/domain/catalogue.ts';
import { formatMoney } from '../../src/domain/money.ts';
import { formatShipDates } from '../../src/domain/ship-dates.ts';
import type { Tx } from '../db/client.ts';
import { cards, discountCodes, finishingDetails, finishingServices, lineItems, papers, photographs, printSizes, users } from '../db/schema.ts';
import { maskedCard } from './checkout-answer.ts';
import type { OrderRow } from './order-access.ts';
import { promisedShipDates } from './order-ship-dates.ts';

/**
 * The receipt a photographer gets when an order is paid: every line and every figure, in
 * dollars, read inside the transaction that marks the order paid (so it shows what was charged).
 */

export interface ReceiptLine {
  photo: string;
  paper: string;
  size: string;
  finishing: string;
  quantity: number;
  priceCents: number;
}

async function receiptLines(tx: Tx, orderId: number): Promise<ReceiptLine[]> {
  const rows = await tx
    .select({ item: lineItems, photo: photographs.fileName, size: printSizes.name, paper: papers.name, service: finishingServices.name, profile: finishingServices.frameProfile })
    .from(lineItems)
    .innerJoin(photographs, eq(photographs.id, lineItems.photographId))
    .innerJoin(printSizes, eq(printSizes.guid, lineItems.printSizeGuid))
    .innerJoin(papers, eq(papers.guid, printSizes.paperGuid))
    .leftJoin(finishingServices, eq(finishingServices.guid, lineItems.finishingServiceGuid))
    .where(eq(lineItems.labOrderId, orderId))
    .orderBy(asc(lineItems.id));
  const detailGuids = [...new Set(rows.flatMap((r) => r.item.finishingDetailGuids))];
  const details = detailGuids.length ? await tx.select({ guid: finishingDetails.guid, name: finishingDetails.name }).from(finishingDetails).where(inArray(finishingDetails.guid, detailGuids)) : [];
  const detailName = new Map(details.map((d) => [d.guid, d.name]));
  return rows.map(({ item, photo, size, paper, service, profile }) => {
    const chosen = item.finishingDetailGuids.flatMap((g) => detailName.get(g) ?? []);
    return {
      photo,
      paper,
      size,
      finishing: service ? [service, frameProfileWords(profile), ...chosen].filter(Boolean).join(', ') : 'none',
      quantity: item.quantity,
      priceCents: (item.printCents + item.finishingCents) * item.quantity,
    };
  });
}

/** Plain text, one line per print, the figures lined up under each other. */
export function receiptText(order: OrderRow, lines: ReceiptLine[], facts: { code: string | null; card: string | null; confirmation: string | null }): string {
  const money = (label: string, cents: number, sign = '') => `${`${label}:`.padEnd(22)}${sign}${formatMoney(cents)}`;
  const address = order.shippingAddress;
  const promised = promisedShipDates(order);
  const shipTo = order.localPickup
    ? 'Local pickup at the lab'
    : address
      ? [address.recipient, address.street, address.street2, `${address.city}, ${address.state} ${address.zip}`].filter(Boolean).join('\n  ')
      : 'none';
  return [
    'Thank you for your order! We will get started on it right away.',
    '',
    `Order: ${order.orderName}`,
    `Paid: ${(order.paidAt ?? new Date()).toUTCString()}`,
    `Paid with: ${facts.card ?? 'credit'}${facts.confirmation ? ` (confirmation ${facts.confirmation})` : ''}`,
    '',
    'Prints:',
    ...lines.map((l) => `- ${l.photo}: ${l.paper} ${l.size}, finishing: ${l.finishing}, quantity ${l.quantity}, ${formatMoney(l.priceCents)}`),
    '',
    money('Subtotal', order.subtotalCents),
    money(facts.code ? `Discount (${facts.code})` : 'Discount', order.discountCents, '-'),
    money('Credit applied', order.creditCents, '-'),
    money(order.localPickup ? 'Shipping (pickup)' : 'Shipping', order.shippingCents),
    money('Boutique packaging', order.boutiqueCents),
    money('Total', order.totalCents),
    '',
    ...(promised ? [formatShipDates(promised)] : []),
    `Shipping to:\n  ${shipTo}`,
    ...(order.boutiqueShipping && order.boutiqueNote ? ['', `Boutique packaging note: ${order.boutiqueNote}`] : []),
  ].join('\n');
}

/** The receipt of a just-paid order (the row as it stands in `tx`). */
export async function receiptMail(tx: Tx, order: OrderRow): Promise<OutgoingMail> {
  const [owner] = await tx.select({ email: users.email }).from(users).where(eq(users.guid, order.userGuid));
  if (!owner) throw new Error('the order has no photographer');
  const [code] = order.discountCodeId ? await tx.select({ code: discountCodes.code }).from(discountCodes).where(eq(discountCodes.id, order.discountCodeId)) : [];
  const [card] = order.selectedCardId && order.totalCents > 0 ? await tx.select({ brand: cards.brand, last4: cards.last4 }).from(cards).where(eq(cards.id, order.selectedCardId)) : [];
  const text = receiptText(order, await receiptLines(tx, order.id), { code: code?.code ?? null, card: card ? maskedCard(card) : null, confirmation: order.paymentConfirmation });
  return { to: owner.email, subject: `Receipt for your order ${order.orderName} (${formatMoney(order.totalCents)})`, text, statusStep: { userGuid: order.userGuid, step: 'received' } };
}
