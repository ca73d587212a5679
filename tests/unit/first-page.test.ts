import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LabOrderList } from '../../src/api/lab-orders.ts';

// The early first page asks the lab through getLabOrders, signed in: both stand in here.
const answer: LabOrderList = { data: [], meta: { total: 0, next_cursor: null, current_user_is_admin: false } } as unknown as LabOrderList;
let resolve: (page: LabOrderList) => void = () => undefined;
vi.mock('../../src/api/lab-orders.ts', () => ({ getLabOrders: () => new Promise<LabOrderList>((r) => (resolve = r)) }));
vi.mock('../../src/api/session.ts', () => ({ currentToken: () => 'token', knownAdmin: () => false }));

const { answeredFirstOrdersPage, startFirstOrdersPage, takeFirstOrdersPage } = await import('../../src/features/orders/first-page.ts');
const ALL = { filters: '', photographerId: null };

afterEach(() => {
  takeFirstOrdersPage(ALL);
});

describe('the early first page of the orders list', () => {
  it('is drawn from its answer only once the answer is in, and stays for the list to take', async () => {
    startFirstOrdersPage();
    expect(answeredFirstOrdersPage(ALL)).toBeNull();
    resolve(answer);
    await Promise.resolve();
    await Promise.resolve();
    expect(answeredFirstOrdersPage(ALL)).toBe(answer);
    // Looking does not take it: the list's writer still gets the same answer.
    await expect(takeFirstOrdersPage(ALL)).resolves.toBe(answer);
    expect(answeredFirstOrdersPage(ALL)).toBeNull();
  });

  it('is not drawn for another view, nor once it is stale', async () => {
    const at = Date.now();
    startFirstOrdersPage();
    resolve(answer);
    await Promise.resolve();
    await Promise.resolve();
    expect(answeredFirstOrdersPage({ filters: 'hide_open', photographerId: null })).toBeNull();
    expect(answeredFirstOrdersPage({ filters: '', photographerId: 'p-1' })).toBeNull();
    expect(answeredFirstOrdersPage(ALL, at + 60_000)).toBeNull();
    expect(answeredFirstOrdersPage(ALL, at)).toBe(answer);
  });
});
