import { eq } from 'drizzle-orm';
import { toDollars } from '../../src/domain/money.ts';
import { blindSlipAllowed } from '../../src/domain/packing-slip.ts';
import { shippingMethod } from '../../src/domain/shipping-speeds.ts';
import type { Db } from '../db/client.ts';
import { cards, discountCodes } from '../db/schema.ts';
import { clientAddressAnswer, clientAddressOf } from './client-address.ts';
import type { OrderRow } from './order-access.ts';

/** A card as the profile and the checkout screens show it. */
export const maskedCard = (card: { brand: string; last4: string }) => `${card.brand.toUpperCase()} •••• ${card.last4}`;

/**
 * The checkout attributes of an order (docs/api.md §8): every figure
 * as stored by order-figures.ts, in dollars; the choices made on the checkout screens, the
 * client's address of a drop-ship included.
 */
export async function checkoutAttributes(db: Db, order: OrderRow) {
  const [code] = order.discountCodeId ? await db.select({ code: discountCodes.code }).from(discountCodes).where(eq(discountCodes.id, order.discountCodeId)) : [];
  const [card] = order.selectedCardId ? await db.select({ brand: cards.brand, last4: cards.last4 }).from(cards).where(eq(cards.id, order.selectedCardId)) : [];
  const address = order.shippingAddress;
  const client = await clientAddressOf(db, order.id);
  return {
    discount_code: code ? { code: code.code } : null,
    boutique_shipping: order.boutiqueShipping,
    boutique_shipping_note: order.boutiqueNote,
    boutique_shipping_price: toDollars(order.boutiqueShipping ? order.boutiqueCents : 0),
    // Every open order may have boutique packaging (the lab's decision for issue 12).
    eligible_for_boutique_shipping: order.status === 'open',
    // Chosen and still allowed: turning local pickup on leaves the choice, unused, for a later switch back.
    blind_slip: order.blindSlip && blindSlipAllowed({ localPickup: order.localPickup, dropShip: client !== null }),
    blind_slip_allowed: blindSlipAllowed({ localPickup: order.localPickup, dropShip: client !== null }),
    local_pickup: order.localPickup,
    shipping_method: shippingMethod(order.localPickup, order.shippingSpeed),
    shipping_address: address
      ? {
          guid: address.guid,
          recipient: address.recipient,
          street: address.street,
          street_2: address.street2,
          city: address.city,
          state_province: address.state,
          zip: address.zip,
          phone_number: address.phone,
          // Saved addresses carry no email (the new-address form has none).
          email: null,
        }
      : null,
    drop_ship_address: client ? clientAddressAnswer(client) : null,
    drop_ship_fee: toDollars(order.dropShipCents),
    prints_total: toDollars(order.subtotalCents - order.finishingCents),
    finishing_total: toDollars(order.finishingCents),
    selected_card_to_use: card ? order.selectedCardId : null,
    selected_card_mask: card ? maskedCard(card) : null,
    used_saved_card: order.usedSavedCard,
    permission_to_share: order.permissionToShare,
    stripe_order_confirmation: order.paymentConfirmation,
    // API orders (to come) name their client; the lab's own orders have none.
    client_name: null,
  };
}
