import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listWindow } from '../../src/features/order-builder/use-window.ts';

describe("the builder's windowed strip and grid", () => {
  it('mounts a screenful of a 1,000-photo order, not 1,000 tiles', () => {
    const win = listWindow(1000, 120, 0, 1200);
    expect(win.start).toBe(0);
    expect(win.end).toBeLessThan(30);
    expect(win.total).toBe(120_000);
    const far = listWindow(1000, 120, 60_000, 1200);
    expect(far.start).toBeGreaterThan(490);
    expect(far.offset).toBe(far.start * 120);
  });

  it('always covers every item in view, and never reaches past the list', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 20, max: 400 }), fc.integer({ min: 1, max: 4000 }), fc.nat(1_000_000), (count, itemPx, size, rawScroll) => {
        const scroll = Math.min(rawScroll, Math.max(0, count * itemPx - size));
        const win = listWindow(count, itemPx, scroll, size);
        expect(win.start).toBeGreaterThanOrEqual(0);
        expect(win.end).toBeLessThanOrEqual(count);
        expect(win.start).toBeLessThanOrEqual(win.end);
        // The items in view (none of an empty list) all lie inside the window.
        const firstSeen = Math.min(count, Math.floor(scroll / itemPx));
        const lastSeen = Math.min(count, Math.ceil((scroll + size) / itemPx));
        expect(win.start).toBeLessThanOrEqual(firstSeen);
        expect(win.end).toBeGreaterThanOrEqual(lastSeen);
      }),
    );
  });
});
