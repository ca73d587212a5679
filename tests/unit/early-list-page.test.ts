import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTokenSource } from '../../src/api/client.ts';
import { startEarlyGet, takeEarlyGet } from '../../src/api/early-get.ts';
import { getLabOrders } from '../../src/api/lab-orders.ts';
import { clearSession, currentToken, saveSession, startActingAs } from '../../src/api/session.ts';
import { earlyListCall } from '../../src/app/early-list-page.ts';
import { ADMIN_OPENING_FILTERS } from '../../src/domain/order-filters.ts';
import { startFirstOrdersPage, takeFirstOrdersPage } from '../../src/features/orders/first-page.ts';

const answer = { token: 'tok-1', intercom_user_hash: 'hash', email: 'ann@example.com', name: 'Ann', business_name: 'Studio', is_admin: false, guid: 'u-1' };
let requests: { url: string; headers: Record<string, string> }[] = [];
// As the app shell does (src/main.tsx): calls carry the page's session's token.
setTokenSource(currentToken);

beforeEach(() => {
  requests = [];
  clearSession();
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    requests.push({ url, headers: init.headers as Record<string, string> });
    return new Response(JSON.stringify({ data: [], meta: {} }), { status: 200 });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  takeFirstOrdersPage({ filters: ADMIN_OPENING_FILTERS, photographerId: null });
  takeFirstOrdersPage({ filters: '', photographerId: null });
});

const stored = (key: string) => localStorage.getItem(key);

/** The call the app's first page makes for the stored session, as the server sees it. */
async function appCall(): Promise<{ url: string; headers: Record<string, string> } | undefined> {
  requests = [];
  startFirstOrdersPage();
  await Promise.resolve();
  return requests[0];
}

describe('the early list page (src/app/early-list-page.ts)', () => {
  it.each([
    ['a photographer', () => saveSession(answer)],
    ['an admin', () => saveSession({ ...answer, is_admin: true })],
    ['an admin acting as a photographer', () => {
      saveSession({ ...answer, is_admin: true });
      startActingAs({ token: 'tok-acting', email: 'bo@example.com', name: 'Bo', business_name: 'Bo Prints' });
    }],
  ])('asks for exactly the page the app asks for, for %s', async (_who, signIn) => {
    signIn();
    const early = earlyListCall('/lab-orders', stored);
    const app = await appCall();
    expect(early).not.toBeNull();
    expect(app).toBeDefined();
    expect(`/api/v2${early?.path}`).toBe(app?.url);
    expect(early?.token).toBe(app?.headers.token);
    expect(earlyListCall('/', stored)).toEqual(early);
  });

  it('asks nothing signed out, with half a session, or on another screen', () => {
    expect(earlyListCall('/lab-orders', stored)).toBeNull();
    localStorage.setItem('token', 'tok-1');
    expect(earlyListCall('/lab-orders', stored)).toBeNull();
    saveSession(answer);
    expect(earlyListCall('/account', stored)).toBeNull();
    expect(earlyListCall('/lab-orders/abc', stored)).toBeNull();
  });

  it('hands its answer to the client once, for the same call and token only', async () => {
    saveSession(answer);
    startEarlyGet('/lab_orders', 'tok-1');
    expect(requests).toHaveLength(1);
    expect(takeEarlyGet('/lab_orders', 'tok-other')).toBeNull();
    expect(takeEarlyGet('/lab_orders?filters=x', 'tok-1')).toBeNull();
    // The client's GET takes it: no second request.
    await expect(getLabOrders()).resolves.toEqual({ data: [], meta: {} });
    expect(requests).toHaveLength(1);
    await getLabOrders();
    expect(requests).toHaveLength(2);
    // Too old: asked afresh.
    startEarlyGet('/lab_orders', 'tok-1');
    expect(takeEarlyGet('/lab_orders', 'tok-1', Date.now() + 60_000)).toBeNull();
  });
});
