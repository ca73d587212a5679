import { asc, eq, inArray } from 'drizzle-orm';
import type { OutgoingMail } from '../adapters/mail/mail-transport.ts';
import { frameProfileWords } from '../../src/domain/catalogue.ts';
import { formatMoney } from '../../src/domain/money.ts';
import { formatShipDates } from '../../src/domain/ship-dates.ts';
import type { Tx } from '../db/client.ts';
import { cards, discountCodes, finishingDetails, finishingServices, lineItems, papers, photographs, printSizes, users } from '../db/schema.ts';
import { allInCostLines, type AllInLine } from '../../src/domain/all-in-cost.ts';
import { shippingMethod } from '../../src/domain/shipping-speeds.ts';
import { maskedCard } from './checkout-answer.ts';
import { clientAddressLine, clientAddressOf, type ClientAddressRow } from './client-address.ts';
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

/**
 * Plain text, one line per print, then the all-in cost (src/domain/all-in-cost.ts: the lines the
 * final review showed) lined up under each other.
 */
export function receiptText(
  order: OrderRow,
  lines: ReceiptLine[],
  facts: { code: string | null; card: string | null; confirmation: string | null; client: ClientAddressRow | null },
): string {
  const address = order.shippingAddress;
  const promised = promisedShipDates(order);
  const shipTo = order.localPickup
    ? 'Local pickup at the lab'
    : facts.client
      ? `Your client: ${clientAddressLine(facts.client).replace(/, /g, '\n  ')}`
      : address
        ? [address.recipient, address.street, address.street2, `${address.city}, ${address.state} ${address.zip}`].filter(Boolean).join('\n  ')
        : 'none';
  const cost = allInCostLines(
    {
      prints: order.subtotalCents - order.finishingCents,
      finishing: order.finishingCents,
      subtotal: order.subtotalCents,
      discount: order.discountCents,
      credit: order.creditCents,
      shipping: order.shippingCents,
      dropShip: order.dropShipCents,
      boutique: order.boutiqueCents,
      total: order.totalCents,
    },
    { method: shippingMethod(order.localPickup, order.shippingSpeed), dropShip: facts.client !== null && !order.localPickup },
  );
  // Deductions keep the receipt's '-$0.00' even when nothing was taken off.
  const signed = (l: AllInLine) => (l.label === 'DISCOUNT' || l.label === 'CREDIT' ? `-${formatMoney(Math.abs(l.cents))}` : l.text);
  const words = (l: AllInLine) => (l.label === 'DISCOUNT' && facts.code ? `Discount (${facts.code})` : l.detail ? `${l.words} (${l.detail})` : l.words);
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
    ...cost.map((l) => `${`${words(l)}:`.padEnd(28)}${signed(l)}`),
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
  const client = await clientAddressOf(tx, order.id);
  const text = receiptText(order, await receiptLines(tx, order.id), { code: code?.code ?? null, card: card ? maskedCard(card) : null, confirmation: order.paymentConfirmation, client });
  return { to: owner.email, subject: `Receipt for your order ${order.orderName} (${formatMoney(order.totalCents)})`, text, statusStep: { userGuid: order.userGuid, step: 'received' } };
}
