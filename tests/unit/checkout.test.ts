import { describe, expect, it } from 'vitest';
import {
  CREDIT_OVER_LIMIT,
  EMPTY_ADDRESS_FORM,
  addressFormReady,
  boutiqueNote,
  canPlaceOrder,
  checkCredit,
  checkoutReady,
  codeAppliedText,
  creditCoversAll,
  discountAndCreditCents,
  newAddressPayload,
  shippingToLines,
  shouldCheckDiscountCode,
  summaryRows,
  type CheckoutFacts,
  type AddressToShow,
} from '../../src/client-rules/checkout.ts';
import { detailsRedirect, finalGuard } from '../../src/features/checkout/checkout-redirects.ts';

const address: AddressToShow = { guid: 'addr-1', recipient: 'Vivian Maier', street: '1 Lake Shore Dr', street_2: null, city: 'Chicago', state_province: 'IL', zip: '60611' };
const ready: CheckoutFacts = {
  status: 'open',
  stripe_order_confirmation: null,
  lineItemCount: 2,
  local_pickup: false,
  shipping_address: address,
  selected_card_to_use: 'card-1',
  credit_applied: 0,
  discount: 0,
  total: 52.5,
};

describe('checkout readiness (docs/orders.md §4)', () => {
  it('is ready with a card and an address, with credit covering everything, or with a card and local pickup', () => {
    expect(checkoutReady(ready)).toBe(true);
    expect(checkoutReady({ ...ready, selected_card_to_use: null })).toBe(false);
    expect(checkoutReady({ ...ready, shipping_address: null })).toBe(false);
    expect(checkoutReady({ ...ready, shipping_address: null, local_pickup: true })).toBe(true);
    expect(checkoutReady({ ...ready, selected_card_to_use: null, shipping_address: null, credit_applied: 62.5, total: 0 })).toBe(true);
    expect(checkoutReady({ ...ready, selected_card_to_use: null, credit_applied: 20, total: 32.5 })).toBe(false);
  });

  it("a drop-ship goes to the client's address: with a card it needs none of the photographer's", () => {
    const client = { recipient: 'Imogen Cunningham', street: '88 Magnolia Ave', street_2: null, city: 'Portland', state_province: 'OR', zip: '97205' };
    const dropShip = { ...ready, shipping_address: null, drop_ship_address: client };
    expect(checkoutReady(dropShip)).toBe(true);
    expect(canPlaceOrder(dropShip)).toBe(true);
    expect(finalGuard(dropShip, 'g1')).toBeNull();
    expect(shippingToLines({ ...dropShip, client_name: null, photographer_name: 'Dorothea' })).toEqual(['DROP-SHIP TO YOUR CLIENT', 'Imogen Cunningham', '88 Magnolia Ave', 'Portland, OR 97205']);
  });

  it('counts the order as covered when nothing is left to charge, as the lab does', () => {
    expect(creditCoversAll({ total: 0 })).toBe(true);
    expect(creditCoversAll({ total: 0.01 })).toBe(false);
  });
});

describe('the final-step guards, in the spec’s order', () => {
  it('sends a charged order that is no longer open to its page first, whatever else is missing', () => {
    expect(finalGuard({ ...ready, status: 'paid', stripe_order_confirmation: 'ch_1', lineItemCount: 0, shipping_address: null }, 'g1')).toBe('/lab-orders/g1?notice=bad_status');
    // Paid by credit alone: no provider confirmation, but paid all the same.
    expect(finalGuard({ ...ready, status: 'paid', paid_at: '2026-11-23T03:00:00Z' }, 'g1')).toBe('/lab-orders/g1?notice=bad_status');
    // Not open but never charged: the other guards decide; PLACE ORDER stays off.
    expect(finalGuard({ ...ready, status: 'cancelled' }, 'g1')).toBeNull();
    expect(canPlaceOrder({ ...ready, status: 'cancelled' })).toBe(false);
  });

  it('then an empty cart goes to the builder, then a missing zip and a missing card to checkout details', () => {
    expect(finalGuard({ ...ready, lineItemCount: 0, shipping_address: null, selected_card_to_use: null }, 'g1')).toBe('/lab-orders/g1/edit/order-builder?notice=no_line_items');
    expect(finalGuard({ ...ready, shipping_address: null, selected_card_to_use: null }, 'g1')).toBe('/lab-orders/g1/checkout-details?notice=missing_address');
    expect(finalGuard({ ...ready, shipping_address: { ...address, zip: '' } }, 'g1')).toBe('/lab-orders/g1/checkout-details?notice=missing_address');
    expect(finalGuard({ ...ready, selected_card_to_use: null }, 'g1')).toBe('/lab-orders/g1/checkout-details');
    expect(finalGuard(ready, 'g1')).toBeNull();
  });

  it('needs no address for a pickup and no card when credit pays for everything', () => {
    expect(finalGuard({ ...ready, local_pickup: true, shipping_address: null }, 'g1')).toBeNull();
    expect(finalGuard({ ...ready, selected_card_to_use: null, credit_applied: 62.5, total: 0 }, 'g1')).toBeNull();
  });
});

describe('PLACE ORDER', () => {
  it('is active only when open, with somewhere to send it, and a card or credit that covers everything', () => {
    expect(canPlaceOrder(ready)).toBe(true);
    expect(canPlaceOrder({ ...ready, status: 'paid' })).toBe(false);
    expect(canPlaceOrder({ ...ready, shipping_address: null })).toBe(false);
    expect(canPlaceOrder({ ...ready, shipping_address: null, local_pickup: true })).toBe(true);
    expect(canPlaceOrder({ ...ready, selected_card_to_use: null })).toBe(false);
    expect(canPlaceOrder({ ...ready, selected_card_to_use: null, credit_applied: 62.5, total: 0 })).toBe(true);
  });
});

describe('checkout details redirects', () => {
  it('sends an empty cart to the builder as cleared and an order no longer open to its page', () => {
    expect(detailsRedirect({ status: 'open', lineItemCount: 0 }, 'g1')).toBe('/lab-orders/g1/edit/order-builder?notice=cart_cleared');
    expect(detailsRedirect({ status: 'paid', lineItemCount: 3 }, 'g1')).toBe('/lab-orders/g1?notice=bad_status');
    expect(detailsRedirect({ status: 'open', lineItemCount: 1 }, 'g1')).toBeNull();
  });
});

describe('SHIPPING TO', () => {
  const order = { local_pickup: false, shipping_address: address, client_name: null, photographer_name: 'Dorothea Lange' };
  it('names the recipient, else the client, else the photographer, then street, street 2 and city, state zip', () => {
    expect(shippingToLines(order)).toEqual(['Vivian Maier', '1 Lake Shore Dr', 'Chicago, IL 60611']);
    expect(shippingToLines({ ...order, shipping_address: { ...address, recipient: null, street_2: 'Apt 4' }, client_name: 'Ada Client' })).toEqual([
      'Ada Client',
      '1 Lake Shore Dr',
      'Apt 4',
      'Chicago, IL 60611',
    ]);
    expect(shippingToLines({ ...order, shipping_address: { ...address, recipient: '  ' } })[0]).toBe('Dorothea Lange');
  });

  it('says LOCAL PICKUP for a pickup and NONE SELECTED without an address', () => {
    expect(shippingToLines({ ...order, local_pickup: true })).toEqual(['LOCAL PICKUP']);
    expect(shippingToLines({ ...order, shipping_address: null })).toEqual(['NONE SELECTED']);
  });
});

describe('discount and credit boxes', () => {
  it('checks a code only from 4 characters', () => {
    expect(shouldCheckDiscountCode('abc')).toBe(false);
    expect(shouldCheckDiscountCode(' abc ')).toBe(false);
    expect(shouldCheckDiscountCode('abcd')).toBe(true);
  });

  it('says which code is applied', () => {
    expect(codeAppliedText(null)).toBe('CODE APPLIED: NONE SELECTED');
    expect(codeAppliedText({ code: 'SPRING-10' })).toBe('CODE APPLIED: SPRING-10');
  });

  it('adds discount and credit to the cent', () => {
    expect(discountAndCreditCents({ discount: 0.1, credit_applied: 0.2 })).toBe(30);
  });

  it('applies credit up to what is available, says so above it, and ignores text that is no amount', () => {
    expect(checkCredit('12.50', 2000)).toEqual({ kind: 'ok', cents: 1250 });
    expect(checkCredit('$20', 2000)).toEqual({ kind: 'ok', cents: 2000 });
    expect(checkCredit('20.01', 2000)).toEqual({ kind: 'over', message: CREDIT_OVER_LIMIT });
    expect(checkCredit('1', 0)).toEqual({ kind: 'over', message: CREDIT_OVER_LIMIT });
    expect(checkCredit('abc', 2000)).toEqual({ kind: 'none' });
    expect(checkCredit('1.234', 2000)).toEqual({ kind: 'none' });
    expect(checkCredit('-5', 2000)).toEqual({ kind: 'none' });
    expect(checkCredit('', 2000)).toEqual({ kind: 'none' });
  });
});

describe('boutique note and new address', () => {
  it('counts the note n/300 and refuses an empty or too long one', () => {
    expect(boutiqueNote('')).toEqual({ counter: '0/300', canSave: false });
    expect(boutiqueNote('   ')).toEqual({ counter: '3/300', canSave: false });
    expect(boutiqueNote('Tissue, please')).toEqual({ counter: '14/300', canSave: true });
    expect(boutiqueNote('x'.repeat(301)).canSave).toBe(false);
  });

  it('enables SAVE with both names, street, city, state and a 5-character zip, and sends the spec’s payload', () => {
    const form = { ...EMPTY_ADDRESS_FORM, firstName: 'Gordon', lastName: 'Parks', street: '9 Elm St', city: 'Fort Scott', state: 'KS', zip: '6670' };
    expect(addressFormReady(form)).toBe(false);
    expect(addressFormReady({ ...form, zip: '66701' })).toBe(true);
    expect(addressFormReady({ ...form, zip: '66701', lastName: ' ' })).toBe(false);
    expect(newAddressPayload({ ...form, zip: '66701', businessName: 'Parks Studio', phone: '555' }, 'g1')).toEqual({
      recipient_name: 'Gordon Parks',
      street_address: '9 Elm St',
      city: 'Fort Scott',
      state: 'KS',
      zip: '66701',
      lab_order_id: 'g1',
      update_address_on_order: true,
    });
  });
});

describe('the summary', () => {
  it('shows the lab’s figures with two decimals, deductions negative', () => {
    expect(summaryRows({ subtotal: 80, discount: 8, credit_applied: 2.5, boutique_shipping_price: 15, shipping_total: 10, total: 94.5 }).map((r) => `${r.label} ${r.text}`)).toEqual([
      'PRINTS $80.00',
      'FINISHING $0.00',
      'SUBTOTAL $80.00',
      'DISCOUNT -$8.00',
      'CREDIT -$2.50',
      'SHIPPING $10.00',
      'BOUTIQUE PACKAGING $15.00',
      'TOTAL $94.50',
    ]);
  });

  it('is the all-in cost: prints and finishing apart, the speed named, the drop-ship fee on a drop-ship', () => {
    const rows = summaryRows({
      prints_total: 38.85,
      finishing_total: 89.5,
      subtotal: 128.35,
      discount: 10,
      credit_applied: 2.5,
      shipping_total: 39,
      shipping_method: 'overnight',
      local_pickup: false,
      drop_ship_fee: 5,
      drop_ship_address: { recipient: 'Ansel Adams' },
      boutique_shipping_price: 15,
      total: 174.85,
    });
    expect(rows.map((r) => [r.label, r.detail, r.text])).toEqual([
      ['PRINTS', null, '$38.85'],
      ['FINISHING', null, '$89.50'],
      ['SUBTOTAL', null, '$128.35'],
      ['DISCOUNT', null, '-$10.00'],
      ['CREDIT', null, '-$2.50'],
      ['SHIPPING', 'OVERNIGHT', '$39.00'],
      ['DROP-SHIP FEE', null, '$5.00'],
      ['BOUTIQUE PACKAGING', null, '$15.00'],
      ['TOTAL', null, '$174.85'],
    ]);
    expect(summaryRows({ subtotal: 1, discount: 0, credit_applied: 0, shipping_total: 0, shipping_method: 'local_pickup', local_pickup: true, boutique_shipping_price: 0, total: 1 }).find((r) => r.label === 'SHIPPING')?.detail).toBe('LOCAL PICKUP');
  });
});
