import { describe, expect, it } from 'vitest';
import { PREVIEW_MAX_HEIGHT_PX, WRAP_EFFECTS, previewBorderWidth, previewEffect, previewSize } from '../../src/client-rules/cart-preview.ts';
import { NO_LINE_ITEMS, ORDER_NOT_OPEN_TO_CHECKOUT, noticeText } from '../../src/app/routes.ts';
import { CHECKING_CROPPED_IMAGE, CLEAR_CART_CONFIRM, CROPPED_MAX_CHECKS, CROPPED_RECHECK_MS, canEditCart, checkoutBox, croppedRecheckIn, lacksCroppedImage } from '../../src/client-rules/cart-review.ts';
import { afterClearCart, reviewRedirect } from '../../src/features/cart-review/review-redirects.ts';
import { formatFrameProfile } from '../../src/domain/catalogue.ts';

describe('cart review (docs/orders.md §2, §4, §5)', () => {
  it('keeps the spec’s texts', () => {
    expect(NO_LINE_ITEMS).toBe('You have no line items!');
    expect(ORDER_NOT_OPEN_TO_CHECKOUT).toBe('Order needs to be in open status to checkout!');
    expect(CHECKING_CROPPED_IMAGE).toBe('checking for cropped image. could take up to 15 seconds...');
    expect(CLEAR_CART_CONFIRM).toBe(
      'WAIT! This will remove all items from your cart and redirect you to the order page. You cannot undo this action. Are you sure you want to remove EVERYTHING from your cart and start over?',
    );
  });

  it.each([
    [{ guid: 'o1', status: 'paid' }, 3, '/lab-orders/o1?notice=bad_status'],
    [{ guid: 'o1', status: 'paid' }, 0, '/lab-orders/o1?notice=bad_status'],
    [{ guid: 'o1', status: 'open' }, 0, '/lab-orders/o1/edit/order-builder?notice=no_line_items'],
    [{ guid: 'o1', status: 'open' }, 2, null],
  ])('order %o with %i line items goes to %j', (order, count, to) => expect(reviewRedirect(order, count)).toBe(to));

  it('sends a cleared cart to the builder, and reads notice flags back', () => {
    expect(afterClearCart('o1')).toBe('/lab-orders/o1/edit/order-builder?notice=cart_cleared');
    expect(noticeText('no_line_items')).toBe(NO_LINE_ITEMS);
    expect(noticeText('bad_status')).toBe(ORDER_NOT_OPEN_TO_CHECKOUT);
    expect(noticeText('cart_cleared')).toBe('Your cart was cleared.');
    expect(noticeText('toString')).toBeNull();
    expect(noticeText(null)).toBeNull();
  });

  it('lets only open orders change', () => {
    expect(canEditCart('open')).toBe(true);
    for (const status of ['paid', 'printing', 'framing', 'shipped', 'cancelled']) expect(canEditCart(status)).toBe(false);
  });

  it('re-checks for cropped images after 4 s, at most twice', () => {
    expect([CROPPED_RECHECK_MS, CROPPED_MAX_CHECKS]).toEqual([4000, 2]);
    const waiting = [{ photoUrl: 'https://lab.example/p1/cropped/li.jpg' }, { photoUrl: 'https://lab.example/p2/preview.jpg' }];
    expect(lacksCroppedImage(waiting[0]!.photoUrl)).toBe(false);
    expect(lacksCroppedImage(waiting[1]!.photoUrl)).toBe(true);
    expect(croppedRecheckIn(waiting, 0)).toBe(4000);
    expect(croppedRecheckIn(waiting, 1)).toBe(4000);
    expect(croppedRecheckIn(waiting, 2)).toBeNull();
    expect(croppedRecheckIn([waiting[0]!], 0)).toBeNull();
  });
});

describe('the checkout box', () => {
  const lines = [
    { printPriceCents: 310, finishingPriceCents: 0, quantity: 4 },
    { printPriceCents: 310, finishingPriceCents: 11150, quantity: 1 },
  ];
  const order = { discount: 5, credit_applied: 20, local_pickup: false, boutique_shipping: true, boutique_shipping_price: 7.5, shipping_total: 10, drop_ship_fee: 0 };

  it('shows subtotal, discount, credit, boutique, shipping and total from the pricing rules', () => {
    const box = checkoutBox(order, lines);
    expect(box.rows).toEqual([
      { label: 'SUBTOTAL', cents: 12700, text: '$127.00' },
      { label: 'DISCOUNT', cents: -500, text: '-$5.00' },
      { label: 'CREDIT', cents: -2000, text: '-$20.00' },
      { label: 'BOUTIQUE PACKAGING', cents: 750, text: '$7.50' },
      { label: 'SHIPPING', cents: 1000, text: '$10.00' },
      { label: 'TOTAL', cents: 11950, text: '$119.50' },
    ]);
    expect(box.totals.total).toBe(box.rows.reduce((sum, r) => (r.label === 'TOTAL' ? sum : sum + r.cents), 0));
  });

  it('drops shipping for local pickup, boutique when not chosen, and never goes below zero', () => {
    const box = checkoutBox({ ...order, local_pickup: true, boutique_shipping: false, credit_applied: 500 }, lines);
    expect(box.totals).toMatchObject({ shipping: 0, boutique: 0, credit: 12200, total: 0 });
    expect(checkoutBox(order, []).totals).toMatchObject({ subtotal: 0, discount: 0 });
  });

  it("charges the lab's price of the chosen speed and shows the drop-ship fee on a drop-ship", () => {
    const box = checkoutBox({ ...order, shipping_total: 39, drop_ship_fee: 5 }, lines);
    expect(box.rows.filter((r) => r.label === 'SHIPPING' || r.label === 'DROP-SHIP FEE').map((r) => `${r.label} ${r.text}`)).toEqual(['SHIPPING $39.00', 'DROP-SHIP FEE $5.00']);
    expect(box.totals.total).toBe(12700 - 500 - 2000 + 750 + 3900 + 500);
  });
});

describe('cart preview (docs/orders.md §9)', () => {
  it.each([
    ['Canvas - Gallery Wrap', { kind: 'wrap', wrap: 'gallery' }],
    ['Canvas - White Wrap', { kind: 'wrap', wrap: 'white' }],
    ['Canvas - Black Wrap', { kind: 'wrap', wrap: 'black' }],
    ['Canvas - Mirror Wrap', { kind: 'wrap', wrap: 'mirror' }],
    ['Deckled Circle - Border', { kind: 'circle' }],
    ['Lustre', { kind: 'flat' }],
    ['Brushed Canvas', { kind: 'flat' }],
  ])('%s is drawn as %o', (paper, effect) => expect(previewEffect(paper)).toEqual(effect));

  it('has exactly the four wraps, and no paper named after an Object property gets one', () => {
    expect(Object.keys(WRAP_EFFECTS)).toHaveLength(4);
    expect(previewEffect('toString')).toEqual({ kind: 'flat' });
  });

  it('grows the border from the print width plus 4', () => {
    expect(previewBorderWidth('8x10')).toBe(12);
    expect(previewBorderWidth('16x24')).toBe(20);
    expect(previewBorderWidth('24x16')).toBe(28);
    expect(previewBorderWidth('Poster')).toBeNull();
  });

  it('draws at most 800 px high, never enlarged', () => {
    expect(PREVIEW_MAX_HEIGHT_PX).toBe(800);
    expect(previewSize({ width: 6000, height: 4000 })).toEqual({ width: 1200, height: 800 });
    expect(previewSize({ width: 300, height: 200 })).toEqual({ width: 300, height: 200 });
  });

  it('shows frame profiles in their short form', () => {
    expect(formatFrameProfile(' 3/4')).toBe('-.75');
    expect(formatFrameProfile(' 1.5')).toBe('-1.5');
  });
});
