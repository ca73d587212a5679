import { describe, expect, it } from 'vitest';
import { DELETE_ORDER_CONFIRM, mergePair } from '../../src/features/orders/order-actions.ts';
import { canDeleteOrder, cardIndicators, rushShipping } from '../../src/features/orders/order-cards.ts';
import { FILTER_BUTTONS } from '../../src/features/orders/order-filter-buttons.ts';
import { passesFilters } from '../../src/features/orders/order-filter-rules.ts';
import { ADMIN_DEFAULT_FILTERS, filtersParam, toggleFilter, type OrderFilter } from '../../src/domain/order-filters.ts';

const order = (o: Partial<Parameters<typeof passesFilters>[0]> = {}) => ({ status: 'paid', photographer_id: 'p-1', ...o });
const on = (...f: OrderFilter[]) => new Set(f);

describe('admin filters of the orders list', () => {
  it('AND-combines the filters', () => {
    const matted = order({ has_mat: true });
    expect(passesFilters(matted, on('mat'), null)).toBe(true);
    expect(passesFilters(matted, on('mat', 'frame'), null)).toBe(false);
    expect(passesFilters(order({ has_mat: true, has_frame: true }), on('mat', 'frame'), null)).toBe(true);
    expect(passesFilters(order(), on(), null)).toBe(true);
  });

  it('prints are orders without finishing; flags for api, test print, boutique', () => {
    expect(passesFilters(order(), on('prints'), null)).toBe(true);
    expect(passesFilters(order({ has_canvas: true }), on('prints'), null)).toBe(false);
    expect(passesFilters(order({ api_order: true }), on('api_order'), null)).toBe(true);
    expect(passesFilters(order(), on('test_print'), null)).toBe(false);
    expect(passesFilters(order({ boutique_shipping: true }), on('boutique'), null)).toBe(true);
  });

  it('hides open orders and the viewing admin own orders', () => {
    expect(passesFilters(order({ status: 'open' }), on('hide_open'), null)).toBe(false);
    expect(passesFilters(order({ status: 'shipped' }), on('hide_open'), null)).toBe(true);
    expect(passesFilters(order({ photographer_id: 'admin' }), on('hide_mine'), 'admin')).toBe(false);
    expect(passesFilters(order({ photographer_id: 'p-1' }), on('hide_mine'), 'admin')).toBe(true);
  });

  it('toggles, starts admins with HIDE OPEN and HIDE MY ORDERS, and writes the query parameter', () => {
    const start = new Set(ADMIN_DEFAULT_FILTERS);
    expect(filtersParam(start)).toBe('hide_open,hide_mine');
    const more = toggleFilter(start, 'frame');
    expect(filtersParam(more)).toBe('frame,hide_open,hide_mine');
    expect(filtersParam(toggleFilter(more, 'hide_open'))).toBe('frame,hide_mine');
    expect(start.has('frame')).toBe(false);
  });

  it('colours the buttons as docs/orders.md §9 says', () => {
    const colour = Object.fromEntries(FILTER_BUTTONS.map((b) => [b.label, b.colour]));
    expect(colour).toMatchObject({ PRINTS: 'blue', MOUNTING: 'purple', MATTING: 'orange', FRAMING: 'teal', CANVAS: 'green', 'API ORDER': 'red', 'TEST PRINTS': 'magenta', BOUTIQUE: 'pink' });
  });
});

describe('order cards', () => {
  it('shows the seven indicator boxes in order, on where the order has it', () => {
    expect(cardIndicators({ status: 'paid', has_frame: true, boutique_shipping: true })).toEqual([
      { label: 'MAT', on: false },
      { label: 'FRAME', on: true },
      { label: 'MOUNT', on: false },
      { label: 'API', on: false },
      { label: 'TEST', on: false },
      { label: 'CANVAS', on: false },
      { label: 'BOUTIQUE', on: true },
    ]);
  });

  it('marks rush shipping only on orders no longer open', () => {
    expect(rushShipping({ status: 'paid', shipping_method: 'overnight' })).toBe('OVERNIGHT');
    expect(rushShipping({ status: 'shipped', shipping_method: 'two_day' })).toBe('TWO DAY');
    expect(rushShipping({ status: 'open', shipping_method: 'overnight' })).toBeNull();
    expect(rushShipping({ status: 'paid', shipping_method: 'ground' })).toBeNull();
  });

  it('deletes only open orders, with the spec confirmation', () => {
    expect(canDeleteOrder('open')).toBe(true);
    expect(canDeleteOrder('paid')).toBe(false);
    expect(DELETE_ORDER_CONFIRM).toBe('WAIT! Deleting this order cannot be undone. Are you sure you want to delete this order permanently?');
  });

  it('pairs two open orders of one photographer for a merge', () => {
    const first = { guid: 'a', photographerId: 'p', name: 'A' };
    expect(mergePair(first, { guid: 'b', photographer_id: 'p', status: 'open' })).toEqual(['a', 'b']);
    expect(mergePair(first, { guid: 'a', photographer_id: 'p', status: 'open' })).toBeNull();
    expect(mergePair(first, { guid: 'b', photographer_id: 'q', status: 'open' })).toBeNull();
    expect(mergePair(first, { guid: 'b', photographer_id: 'p', status: 'paid' })).toBeNull();
    expect(mergePair(null, { guid: 'b', photographer_id: 'p', status: 'open' })).toBeNull();
  });
});
