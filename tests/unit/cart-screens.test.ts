import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { previewEffect } from '../../src/client-rules/cart-preview.ts';
import { checkoutBox } from '../../src/client-rules/cart-review.ts';
import { previewLayout } from '../../src/features/cart-preview/preview-layout.ts';
import { finishingText } from '../../src/client-rules/line-items.ts';
import { checkoutBoxLines, checkoutBoxOrder } from '../../src/features/cart-review/review-figures.ts';

const order = { discountCents: 500, creditCents: 250, boutiqueCents: 0, shippingCents: 1000 };

describe('the review checkout box from the device copy', () => {
  it('reads a pickup from no shipping and boutique packaging from its price', () => {
    expect(checkoutBoxOrder(order)).toEqual({ discount: 5, credit_applied: 2.5, local_pickup: false, boutique_shipping: false, boutique_shipping_price: 0, shipping_total: 10, drop_ship_fee: 0 });
    expect(checkoutBoxOrder({ ...order, shippingCents: 3900, dropShipCents: 500 })).toMatchObject({ shipping_total: 39, drop_ship_fee: 5 });
    expect(checkoutBoxOrder({ ...order, shippingCents: 0, boutiqueCents: 1250 })).toMatchObject({ local_pickup: true, boutique_shipping: true, boutique_shipping_price: 12.5 });
  });

  it('adds up the lines as they stand on the device', () => {
    const lines = checkoutBoxLines([
      { printPriceCents: 1200, finishingPriceCents: 3000, quantity: 2 },
      { printPriceCents: 800, finishingPriceCents: 0, quantity: 1 },
    ]);
    const { rows } = checkoutBox(checkoutBoxOrder(order), lines);
    expect(rows.map((r) => `${r.label} ${r.text}`)).toEqual([
      'SUBTOTAL $92.00',
      'DISCOUNT -$5.00',
      'CREDIT -$2.50',
      'BOUTIQUE PACKAGING $0.00',
      'SHIPPING $10.00',
      'TOTAL $94.50',
    ]);
  });

  it('says a line’s finishing in one line, frame profiles in words', () => {
    const none = { finishingCategory: 'none', finishingService: null, finishingDetailOne: null, finishingDetailTwo: null, finishingDetailThree: null, frameProfile: null } as const;
    expect(finishingText(none)).toBe('None');
    expect(finishingText({ ...none, finishingCategory: 'hardwood_frame', finishingService: 'Walnut', frameProfile: ' 1.5', finishingDetailOne: 'White mat', finishingDetailTwo: 'Museum glass' })).toBe(
      'HARDWOOD FRAME: Walnut · 1.5" profile · White mat · Museum glass',
    );
    expect(finishingText({ ...none, finishingCategory: 'mount' })).toBe('MOUNT');
  });
});

describe('the preview layout', () => {
  const drawn = { width: 600, height: 400 };

  it('draws a flat print and a circle as the picture alone', () => {
    for (const paper of ['Lustre', 'Deckled Circle']) {
      const layout = previewLayout(previewEffect(paper), drawn, 12);
      expect(layout).toEqual({ canvas: drawn, picture: { x: 0, y: 0, ...drawn }, face: { x: 0, y: 0, ...drawn }, edges: [] });
    }
  });

  it('adds coloured or mirrored sides round the picture, and folds a gallery wrap’s own edge', () => {
    const black = previewLayout({ kind: 'wrap', wrap: 'black' }, drawn, 12);
    expect(black.canvas).toEqual({ width: 624, height: 424 });
    expect(black.picture).toEqual({ x: 12, y: 12, width: 600, height: 400 });
    expect(black.edges.find((e) => e.side === 'right')).toEqual({
      side: 'right',
      dest: { x: 612, y: 12, width: 12, height: 400 },
      source: { x: 588, y: 0, width: 12, height: 400 },
    });
    const gallery = previewLayout({ kind: 'wrap', wrap: 'gallery' }, drawn, 12);
    expect(gallery.canvas).toEqual(drawn);
    expect(gallery.face).toEqual({ x: 12, y: 12, width: 576, height: 376 });
  });

  it('keeps every side inside the canvas and every mirrored strip inside the picture', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('gallery', 'white', 'black', 'mirror' as const),
        fc.integer({ min: 1, max: 3000 }),
        fc.integer({ min: 1, max: 800 }),
        fc.integer({ min: 0, max: 60 }),
        (wrap, width, height, border) => {
          const layout = previewLayout({ kind: 'wrap', wrap }, { width, height }, border);
          const inside = (r: { x: number; y: number; width: number; height: number }, w: number, h: number) =>
            r.x >= 0 && r.y >= 0 && r.width >= 0 && r.height >= 0 && r.x + r.width <= w && r.y + r.height <= h;
          expect(layout.face.width).toBeGreaterThan(0);
          expect(layout.face.height).toBeGreaterThan(0);
          for (const edge of layout.edges) {
            expect(inside(edge.dest, layout.canvas.width, layout.canvas.height)).toBe(true);
            expect(inside(edge.source, width, height)).toBe(true);
          }
        },
      ),
    );
  });
});
