import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/errors.ts';
import { setTokenSource } from '../../src/api/client.ts';
import { clearSession, currentToken, saveSession } from '../../src/api/session.ts';
import { useConnectivity } from '../../src/offline/connectivity.ts';
import { LabDatabase } from '../../src/offline/db.ts';
import { orderChanges } from '../../src/offline/order-changes.ts';
import { ownerOutbox } from '../../src/offline/outbox-drain.ts';
import { outboxIdle } from '../../src/offline/outbox-idle.ts';
import { kickOutbox } from '../../src/offline/outbox-sync.ts';
import { FakeLineItemLab, ORDER, OWNER, payload } from './fixtures/fake-line-item-lab.ts';

/** The fake lab behind the real HTTP client: fetch in, Response out, with the headers it saw. */
function fetchInto(lab: FakeLineItemLab, seen: Headers[]) {
  return async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    seen.push(headers);
    const path = String(input).replace(/^\/api\/v2/, '');
    try {
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      const answer = await lab.request(init.method as 'POST', path, { body, idempotencyKey: headers.get('idempotency-key') ?? undefined });
      return new Response(JSON.stringify(answer), { status: 200 });
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'network') throw new TypeError('Failed to fetch', { cause: err });
      const e = err as ApiError;
      return new Response(JSON.stringify({ error: { status: e.status, class_name: e.className, user_message: { message: e.message } } }), { status: e.status ?? 500 });
    }
  };
}

// As the app shell does (src/main.tsx): calls carry the page's session's token.
setTokenSource(currentToken);

let db: LabDatabase;
beforeEach(() => {
  db = new LabDatabase(`outbox-sync-${Math.random()}`);
  saveSession({ token: 'ann-token', guid: 'u1', intercom_user_hash: 'h', email: OWNER, name: 'Ann', business_name: 'Ann Photo', is_admin: false });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  clearSession();
  useConnectivity.setState({ browserOnline: true, labReachable: null });
  await db.delete();
});

describe('the page sends changes when the connectivity store says online', () => {
  it('holds changes while offline and sends them, with the token and the stored key, once online', async () => {
    const lab = new FakeLineItemLab();
    const seen: Headers[] = [];
    vi.stubGlobal('fetch', fetchInto(lab, seen));
    useConnectivity.setState({ browserOnline: false });
    const changes = orderChanges({ db, owner: () => OWNER, afterChange: () => kickOutbox(db) });
    await changes.addLineItems(ORDER, [payload('a')]);
    await changes.setLineItemQuantity(ORDER, 'a', 2);
    const keys = (await ownerOutbox(db, OWNER)).map((e) => e.idempotencyKey);
    // Offline, kickOutbox decides at once not to send (it only waits for the connection, no
    // timer): nothing went out, and both changes are still waiting.
    expect(lab.requests).toHaveLength(0);
    expect(await db.outbox.count()).toBe(2);

    useConnectivity.setState({ browserOnline: true });
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    expect(lab.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST /lab_orders/${ORDER}/line_items`, 'PATCH /line_items/a/update_quantity']);
    expect(seen.map((h) => [h.get('token'), h.get('idempotency-key')])).toEqual(keys.map((k) => ['ann-token', k]));
    expect(lab.items.get('a')?.quantity).toBe(2);
  });

  it('stops at a lost connection and sends the rest when the lab answers again', async () => {
    const lab = new FakeLineItemLab();
    vi.stubGlobal('fetch', fetchInto(lab, []));
    lab.fault = () => new ApiError('network', 'Failed to fetch');
    const changes = orderChanges({ db, owner: () => OWNER, afterChange: () => kickOutbox(db) });
    await changes.addLineItems(ORDER, [payload('a')]);
    // The client records the failed round trip: the store now says offline.
    await vi.waitFor(() => expect(useConnectivity.getState().labReachable).toBe(false));
    expect(await db.outbox.count()).toBe(1);
    lab.fault = null;
    useConnectivity.setState({ labReachable: true });
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    expect(lab.items.size).toBe(1);
  });

  it('tells a reader of the order when the page has stopped sending, and not before', async () => {
    const lab = new FakeLineItemLab();
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const send = fetchInto(lab, []);
    let asked = 0;
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      asked += 1;
      await gate;
      return send(input, init);
    });
    // Nothing sending: no wait at all.
    const nextTask = new Promise((r) => setTimeout(() => r('waited'), 0));
    await expect(Promise.race([outboxIdle(60_000).then(() => 'at once'), nextTask])).resolves.toBe('at once');
    const changes = orderChanges({ db, owner: () => OWNER, afterChange: () => kickOutbox(db) });
    await changes.addLineItems(ORDER, [payload('a')]);
    await changes.setLineItemQuantity(ORDER, 'a', 2);
    let idle = false;
    const waited = outboxIdle(60_000).then(() => (idle = true));
    // The page is sending (its first call is held at the gate): the reader is still waiting.
    await vi.waitFor(() => expect(asked).toBe(1));
    expect(idle).toBe(false);
    open();
    await waited;
    // Both changes were sent by then, the second by the pass the second change asked for.
    expect(await db.outbox.count()).toBe(0);
    expect(lab.items.get('a')?.quantity).toBe(2);
  });

  it('gives up waiting for the sending after the time it was given', async () => {
    const lab = new FakeLineItemLab();
    const send = fetchInto(lab, []);
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let asked = 0;
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      asked += 1;
      await gate;
      return send(input, init);
    });
    const changes = orderChanges({ db, owner: () => OWNER, afterChange: () => kickOutbox(db) });
    await changes.addLineItems(ORDER, [payload('a')]);
    await outboxIdle(30);
    expect(await db.outbox.count()).toBe(1);
    open();
    await outboxIdle(60_000);
    expect(await db.outbox.count()).toBe(0);
  });
});
