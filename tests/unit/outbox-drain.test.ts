import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.ts';
import { lineItemCalls } from '../../src/api/line-item-calls.ts';
import { SHARED_OWNER } from '../../src/offline/cached-read.ts';
import { LabDatabase } from '../../src/offline/db.ts';
import { orderChanges } from '../../src/offline/order-changes.ts';
import { BACKOFF_FIRST_MS, BACKOFF_MAX_MS, backoffMs, drainOutbox, ownerOutbox, refusalText } from '../../src/offline/outbox-drain.ts';
import { appliedSendCount, GONE_TEXT } from '../../src/offline/sent-marks.ts';
import { drainEveryOwner } from '../../src/offline/outbox-background.ts';
import { goneFromLab, refreshOrderWith } from '../../src/offline/order-store.ts';
import { LINE_ITEM_READ_PAGE } from '../../src/offline/order-read.ts';
import { FakeLineItemLab, ORDER, OWNER, catalogue, labError, payload } from './fixtures/fake-line-item-lab.ts';

let n = 0;
const dbs: LabDatabase[] = [];
afterEach(async () => {
  await Promise.all(dbs.splice(0).map((db) => db.delete()));
});

async function setup() {
  const db = new LabDatabase(`outbox-drain-${++n}`);
  dbs.push(db);
  await db.cachedReads.put({ key: `${SHARED_OWNER}|calculator_catalogue`, owner: SHARED_OWNER, savedAt: 1, payload: catalogue });
  const lab = new FakeLineItemLab();
  let clock = 1_000_000;
  const time = { now: () => clock, advance: (ms: number) => void (clock += ms) };
  const changes = orderChanges({ db, owner: () => OWNER, afterChange: () => undefined, now: time.now });
  const drain = () => drainOutbox({ db, owner: OWNER, calls: lineItemCalls(lab.request), now: time.now, random: () => 0.5 });
  return { db, lab, changes, drain, time };
}

const shown = async (db: LabDatabase) =>
  (await db.lineItems.where('[owner+orderGuid]').equals([OWNER, ORDER]).sortBy('sortKey')).filter((r) => !r.deleted);

describe('the outbox drain', () => {
  it('sends changes in the order they were made, one request each, and settles the rows', async () => {
    const { db, lab, changes, drain } = await setup();
    await changes.addLineItems(ORDER, [payload('a'), payload('b')]);
    await changes.setLineItemQuantity(ORDER, 'a', 3);
    await changes.updateLineItem(ORDER, payload('b', { notes: 'warm tones' }));
    await changes.deleteLineItem(ORDER, 'b');
    expect(await drain()).toEqual({ status: 'done', sent: 4 });
    expect(lab.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /lab_orders/${ORDER}/line_items`,
      'PATCH /line_items/a/update_quantity',
      `PATCH /lab_orders/${ORDER}/line_items/b`,
      'DELETE /line_items/b',
    ]);
    expect(lab.requests[1]?.body).toEqual({ line_items: [{ quantity: 3 }] });
    expect(new Set(lab.requests.map((r) => r.key)).size).toBe(4);
    expect([...lab.items.keys()]).toEqual(['a']);
    expect(await db.outbox.count()).toBe(0);
    const rows = await db.lineItems.toArray();
    expect(rows.map((r) => [r.guid, r.quantity, r.pending, r.totalPriceCents])).toEqual([['a', 3, false, 3750]]);
    expect(rows[0]?.confirmed).toMatchObject({ quantity: 3, photoUrl: '/photos/photo-a.jpg' });
    expect(await db.orders.get(ORDER)).toMatchObject({ name: 'Wedding', subtotalCents: 3750, shippingCents: 1000, totalCents: 4750 });
  });

  it('a line the lab merged into one another device added keeps the lab guid, and no copy stays here', async () => {
    const { db, lab, changes, drain } = await setup();
    const other = lab.serverItem(payload('a', { guid: 'from-other-device' }));
    lab.items.set(other.guid, other);
    await changes.addLineItems(ORDER, [payload('a')]);
    expect(await drain()).toEqual({ status: 'done', sent: 1 });
    expect([...lab.items.values()].map((i) => [i.guid, i.quantity])).toEqual([['from-other-device', 2]]);
    expect((await shown(db)).map((r) => [r.guid, r.quantity, r.pending])).toEqual([['from-other-device', 2, false]]);
  });

  it('a try repeated after a lost answer or a crash carries the same key, so the lab does it once', async () => {
    const { db, lab, changes, drain } = await setup();
    await changes.addLineItems(ORDER, [payload('a')]);
    const key = (await ownerOutbox(db, OWNER))[0]?.idempotencyKey;
    lab.loseAnswer = () => true;
    expect(await drain()).toMatchObject({ status: 'offline', sent: 0 });
    expect(lab.items.size).toBe(1);
    // The app was closed here; the next drain (a new page or the service worker) replays.
    lab.loseAnswer = null;
    expect(await drain()).toEqual({ status: 'done', sent: 1 });
    expect(lab.requests.map((r) => r.key)).toEqual([key, key]);
    expect(lab.items.size).toBe(1);
    expect((await shown(db)).map((r) => [r.guid, r.pending])).toEqual([['a', false]]);
  });

  it('a change whose answer went to an earlier sign-in is no refusal: the lab made it once, and the order is read as the lab has it', async () => {
    const { db, lab, changes, drain } = await setup();
    await changes.addLineItems(ORDER, [payload('a'), payload('b')]);
    await drain();
    await changes.setLineItemQuantity(ORDER, 'a', 5);
    await changes.deleteLineItem(ORDER, 'b');
    await changes.addLineItems(ORDER, [payload('c')]);
    // The first change's answer is lost: the photographer signed out while it was on its way.
    lab.loseAnswer = () => true;
    expect(await drain()).toMatchObject({ status: 'offline', sent: 0 });
    lab.loseAnswer = null;
    lab.signIn += 1;
    const before = lab.requests.length;
    expect(await drain()).toEqual({ status: 'done', sent: 3 });
    // The change went again under its own key (so it was not made twice), then the order was read.
    expect(lab.requests.slice(before).map((r) => `${r.method} ${r.path.split('?')[0]}`)).toEqual([
      'PATCH /line_items/a/update_quantity',
      `GET /lab_orders/${ORDER}/retrieve_full_order`,
      'DELETE /line_items/b',
      `POST /lab_orders/${ORDER}/line_items`,
    ]);
    expect([...lab.items.values()].map((i) => [i.guid, i.quantity])).toEqual([['a', 5], ['c', 1]]);
    expect((await shown(db)).map((r) => [r.guid, r.quantity, r.pending, r.refusal])).toEqual([['a', 5, false, null], ['c', 1, false, null]]);
    expect(await db.outbox.count()).toBe(0);
  });

  it.each([
    ['an add', 'addLineItems'],
    ['a delete', 'deleteLineItem'],
  ] as const)('%s answered to an earlier sign-in shows the lab\'s cart, with nothing added twice', async (_, change) => {
    const { db, lab, changes, drain } = await setup();
    await changes.addLineItems(ORDER, [payload('a')]);
    if (change === 'deleteLineItem') {
      await drain();
      await changes.deleteLineItem(ORDER, 'a');
    }
    lab.loseAnswer = () => true;
    await drain();
    lab.loseAnswer = null;
    lab.signIn += 1;
    expect(await drain()).toEqual({ status: 'done', sent: 1 });
    const kept = change === 'addLineItems' ? ['a'] : [];
    expect([...lab.items.keys()]).toEqual(kept);
    expect((await shown(db)).map((r) => [r.guid, r.pending, r.refusal])).toEqual(kept.map((g) => [g, false, null]));
  });

  it('a change the lab refused at its first try, its answer lost at sign-out, still shows the refusal after signing in again', async () => {
    const { db, lab, changes, drain } = await setup();
    await changes.addLineItems(ORDER, [payload('a')]);
    await drain();
    // Deleted on another device meanwhile: the quantity change is refused (404), its answer lost.
    lab.items.delete('a');
    await changes.setLineItemQuantity(ORDER, 'a', 3);
    lab.loseAnswer = () => true;
    expect(await drain()).toMatchObject({ status: 'offline', sent: 0 });
    lab.loseAnswer = null;
    lab.signIn += 1;
    expect(await drain()).toEqual({ status: 'done', sent: 0 });
    const [a] = await shown(db);
    expect(a).toMatchObject({ guid: 'a', gone: true, refusal: GONE_TEXT });
  });

  it('gives a row written without a key one before its first try, and keeps it for the retries', async () => {
    const { db, lab, changes, drain } = await setup();
    await changes.addLineItems(ORDER, [payload('a')]);
    await drain();
    await db.outbox.add({ id: 'old', owner: OWNER, createdAt: 5, name: 'updateQuantity', payload: { orderGuid: ORDER, lineItemGuid: 'a', quantity: 7 } });
    lab.fault = () => new ApiError('network', 'Failed to fetch');
    await drain();
    const stored = (await db.outbox.get('old'))?.idempotencyKey;
    expect(stored).toBeTruthy();
    lab.fault = null;
    await drain();
    expect(lab.requests.slice(1).map((r) => r.key)).toEqual([stored, stored]);
    expect(lab.items.get('a')?.quantity).toBe(7);
  });

  it('marks a refused line item with words the user can act on, drops that change and goes on', async () => {
    const { db, lab, changes, drain } = await setup();
    await changes.addLineItems(ORDER, [payload('a')]);
    await drain();
    await changes.setLineItemQuantity(ORDER, 'a', 4);
    await changes.addLineItems(ORDER, [payload('b')]);
    lab.fault = (req) => (req.path.includes('update_quantity') ? labError(422, 'ProductUnavailable', 'That print size is withdrawn.') : null);
    expect(await drain()).toEqual({ status: 'done', sent: 1 });
    expect(await db.outbox.count()).toBe(0);
    const [a, b] = await shown(db);
    expect(a).toMatchObject({ guid: 'a', quantity: 4, pending: false });
    expect(a?.refusal).toMatch(/no longer offers this print size or finishing\. Edit this line item to choose another, or delete it/);
    expect(b).toMatchObject({ guid: 'b', pending: false, refusal: null });
    expect([...lab.items.keys()]).toEqual(['a', 'b']);
  });

  it('says a refused add was not added, and dismissing it removes it from the device', async () => {
    const { db, lab, changes, drain } = await setup();
    await changes.addLineItems(ORDER, [payload('a')]);
    lab.fault = () => labError(422, 'PhotoMissing', 'That photo is not in this order.');
    await drain();
    const [a] = await shown(db);
    expect(a?.refusal).toBe('This photo is no longer in the order, so this line item was not added. Upload the photo again, then add it.');
    await changes.dismissRefusal('a');
    expect(await db.lineItems.count()).toBe(0);
  });

  it('shows a line item again when the lab refuses its delete (order no longer open)', async () => {
    const { db, lab, changes, drain } = await setup();
    await changes.addLineItems(ORDER, [payload('a')]);
    await drain();
    await changes.clearCart(ORDER);
    expect(await shown(db)).toEqual([]);
    lab.status = 'printing';
    await drain();
    const [a] = await shown(db);
    expect(a?.refusal).toMatch(/no longer open, so its cart cannot change/);
    // Refused, but the lab still has it: it can be edited.
    expect(a?.gone).toBe(false);
    expect(a && goneFromLab(a)).toBe(false);
    expect(await db.outbox.count()).toBe(0);
  });

  it('says a change of a line item deleted elsewhere was not made, once, and dismissing removes it from the device', async () => {
    const { db, lab, changes, drain } = await setup();
    await changes.addLineItems(ORDER, [payload('a')]);
    await drain();
    await changes.setLineItemQuantity(ORDER, 'a', 3);
    lab.items.delete('a');
    lab.fault = (req) => (req.path.includes('update_quantity') ? labError(404, 'NotFound', 'This line item does not exist.') : null);
    expect(await drain()).toEqual({ status: 'done', sent: 0 });
    const [a] = await shown(db);
    expect(a).toMatchObject({ guid: 'a', quantity: 3, pending: false });
    expect(a?.refusal).toBe(GONE_TEXT);
    expect(a?.refusal).not.toMatch(/refused/);
    // The drain says so from the answer's status, not the screen from the words.
    expect(a?.gone).toBe(true);
    expect(a && goneFromLab({ ...a, refusal: 'any other words' })).toBe(true);
    // Not the lab's out-of-date copy back: the lab has none.
    await changes.dismissRefusal('a');
    expect(await db.lineItems.count()).toBe(0);
  });

  it('gives the lab\'s own words once, with one full stop', () => {
    expect(refusalText({ kind: 'server', status: 422, className: 'ValidationError', message: 'Quantity must be at least 1.' }, 'updateQuantity')).toBe(
      'Quantity must be at least 1. Dismiss to see the line item as the lab has it.',
    );
  });

  it('takes a 404 on a delete as done', async () => {
    const { db, lab, changes, drain } = await setup();
    await changes.addLineItems(ORDER, [payload('a')]);
    await drain();
    lab.items.clear();
    await changes.deleteLineItem(ORDER, 'a');
    expect(await drain()).toEqual({ status: 'done', sent: 1 });
    expect(await db.lineItems.count()).toBe(0);
  });

  it('keeps every change for its owner on a 401, and sends nothing after it', async () => {
    const { db, lab, changes, drain } = await setup();
    await changes.addLineItems(ORDER, [payload('a')]);
    await changes.setLineItemQuantity(ORDER, 'a', 2);
    lab.fault = () => labError(401, 'Unauthorized', 'You have been logged out!');
    expect(await drain()).toEqual({ status: 'unauthorized', sent: 0 });
    expect(lab.requests).toHaveLength(1);
    expect((await ownerOutbox(db, OWNER)).map((e) => [e.name, e.attempts])).toEqual([['addLineItems', 0], ['updateQuantity', 0]]);
    expect((await shown(db))[0]).toMatchObject({ pending: true, refusal: null });
  });

  it('backs off exponentially when the lab fails, keeping the order, then sends', async () => {
    const { db, lab, changes, drain, time } = await setup();
    await changes.addLineItems(ORDER, [payload('a')]);
    await changes.setLineItemQuantity(ORDER, 'a', 2);
    lab.fault = () => labError(503, 'ServiceUnavailable', 'busy');
    expect(await drain()).toEqual({ status: 'waiting', sent: 0, retryAt: time.now() + BACKOFF_FIRST_MS });
    // Before the wait is over nothing is sent, not even the later change.
    expect(await drain()).toMatchObject({ status: 'waiting' });
    expect(lab.requests).toHaveLength(1);
    time.advance(BACKOFF_FIRST_MS);
    expect(await drain()).toEqual({ status: 'waiting', sent: 0, retryAt: time.now() + 2 * BACKOFF_FIRST_MS });
    expect((await ownerOutbox(db, OWNER))[0]).toMatchObject({ attempts: 2, lastError: '503 ServiceUnavailable busy' });
    lab.fault = null;
    time.advance(2 * BACKOFF_FIRST_MS);
    expect(await drain()).toEqual({ status: 'done', sent: 2 });
    expect(lab.items.get('a')?.quantity).toBe(2);
  });

  it('waits and tries again, under the same key, while the lab is still running an earlier try of the change', async () => {
    const { db, lab, changes, drain, time } = await setup();
    await changes.addLineItems(ORDER, [payload('a')]);
    const key = (await ownerOutbox(db, OWNER))[0]?.idempotencyKey;
    lab.fault = () => labError(409, 'RequestInProgress', 'This request is still being processed. Try again in a moment.');
    expect(await drain()).toEqual({ status: 'waiting', sent: 0, retryAt: time.now() + BACKOFF_FIRST_MS });
    expect((await shown(db))[0]).toMatchObject({ pending: true, refusal: null });
    lab.fault = null;
    time.advance(BACKOFF_FIRST_MS);
    expect(await drain()).toEqual({ status: 'done', sent: 1 });
    expect(lab.requests.map((r) => r.key)).toEqual([key, key]);
    expect((await shown(db))[0]).toMatchObject({ pending: false, refusal: null });
  });

  it('backoff doubles up to its ceiling, spread by the jitter', () => {
    expect([1, 2, 3, 4].map((a) => backoffMs(a, () => 0.5))).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(backoffMs(30, () => 0.5)).toBe(BACKOFF_MAX_MS);
    expect(backoffMs(1, () => 0)).toBe(1_600);
    expect(backoffMs(1, () => 0.999_999)).toBe(2_400);
  });

  it('leaves a row it cannot read (another version\'s) counted and unsent, without holding up the rest', async () => {
    const { db, lab, changes, drain } = await setup();
    await db.outbox.put({ id: 'unsent-1', owner: OWNER, createdAt: 1, name: 'updateQuantity', payload: { quantity: 2 } });
    await changes.addLineItems(ORDER, [payload('a')]);
    expect(await drain()).toEqual({ status: 'done', sent: 1 });
    expect(lab.requests).toHaveLength(1);
    expect((await db.outbox.toArray()).map((e) => e.id)).toEqual(['unsent-1']);
  });

  it('runs one drain at a time', async () => {
    const { lab, changes, drain } = await setup();
    await changes.addLineItems(ORDER, [payload('a')]);
    const [one, two] = await Promise.all([drain(), drain()]);
    expect([one.status, two.status].sort()).toEqual(['busy', 'done']);
    expect(lab.requests).toHaveLength(1);
  });

  it('in the service worker, drains each owner with a kept token and forgets a dead one', async () => {
    const { db, lab, changes } = await setup();
    await changes.addLineItems(ORDER, [payload('a')]);
    await db.syncCredentials.bulkPut([{ owner: OWNER, token: 't-ann' }, { owner: 'bob@example.com', token: 't-bob' }]);
    await db.outbox.put({ id: 'bob-1', owner: 'bob@example.com', createdAt: 1, seq: 99, name: 'deleteLineItem', payload: { orderGuid: 'o2', lineItemGuid: 'x' }, idempotencyKey: 'k' });
    const tokens: string[] = [];
    const finished = await drainEveryOwner(db, (token) => {
      tokens.push(token);
      return token === 't-bob' ? async () => Promise.reject(labError(401, 'Unauthorized', 'gone')) : lab.request;
    });
    expect(finished).toBe(true);
    expect(tokens).toEqual(['t-ann', 't-bob']);
    expect(lab.items.size).toBe(1);
    expect((await db.outbox.toArray()).map((e) => e.id)).toEqual(['bob-1']);
    expect((await db.syncCredentials.toArray()).map((c) => c.owner)).toEqual([OWNER]);
  });
});

describe('refreshOrder', () => {
  it('fills the tables from retrieve_full_order without overwriting line items with changes on their way', async () => {
    const { db, lab, changes, drain } = await setup();
    await changes.addLineItems(ORDER, [payload('a'), payload('b'), payload('c')]);
    await drain();
    // Changed elsewhere on the lab: a's notes, c gone, d added.
    lab.items.set('a', { ...lab.items.get('a')!, notes: 'from the lab' });
    lab.items.delete('c');
    lab.items.set('d', lab.serverItem(payload('d')));
    // Not yet sent here: b's quantity.
    await changes.setLineItemQuantity(ORDER, 'b', 5);
    await refreshOrderWith(ORDER, OWNER, lineItemCalls(lab.request), db);
    const rows = await shown(db);
    expect(rows.map((r) => [r.guid, r.quantity, r.notes, r.pending])).toEqual([
      ['a', 1, 'from the lab', false],
      ['b', 5, '', true],
      ['d', 1, '', false],
    ]);
    expect((await db.lineItems.get('b'))?.confirmed?.quantity).toBe(1);
    // The shown figures follow the unsent quantity.
    expect(await db.orders.get(ORDER)).toMatchObject({ status: 'open', subtotalCents: 1250 * 7, totalCents: 1250 * 7 + 1000 });
  });

  it('reads again when a send was answered during its read by another context (the service worker, another tab)', async () => {
    const { db, lab, changes, drain } = await setup();
    await changes.addLineItems(ORDER, [payload('a')]);
    await drain();
    const calls = lineItemCalls(lab.request);
    let reads = 0;
    const pageCount = appliedSendCount();
    // While the first read is on its way, another context's drain answers a send: the lab gets b,
    // and the device's tables get b and a new stamp. This page's own count does not move.
    const racing = {
      ...calls,
      retrieveFullOrderPage: async (guid: string, perPage: number, cursor: string | null) => {
        reads += 1;
        const answer = await calls.retrieveFullOrderPage(guid, perPage, cursor);
        if (reads === 1) {
          // Another context (the service worker) counts its answers in a count of its own.
          const other = new LabDatabase(db.name);
          await orderChanges({ db: other, owner: () => OWNER, afterChange: () => undefined }).addLineItems(ORDER, [payload('b')]);
          await drainOutbox({ db: other, owner: OWNER, calls, random: () => 0.5, countApplied: () => undefined });
          other.close();
        }
        return answer;
      },
    };
    await refreshOrderWith(ORDER, OWNER, racing, db);
    // The other context's send did not move this page's count: the order's stamp told.
    expect(appliedSendCount()).toBe(pageCount);
    expect(reads).toBe(2);
    // The first, older answer (without b) was not written over b.
    expect((await shown(db)).map((r) => [r.guid, r.pending])).toEqual([
      ['a', false],
      ['b', false],
    ]);
  });

  it('reads a long cart a page at a time and keeps every line item of every page', async () => {
    const { db, lab, changes, drain } = await setup();
    const guids = Array.from({ length: LINE_ITEM_READ_PAGE + 5 }, (_, i) => `item-${String(i).padStart(4, '0')}`);
    await changes.addLineItems(ORDER, guids.map((g) => payload(g)));
    await drain();
    // One the lab has that this device never saw, on the last page.
    lab.items.set('zz-elsewhere', lab.serverItem(payload('zz-elsewhere')));
    await refreshOrderWith(ORDER, OWNER, lineItemCalls(lab.request), db);
    expect(lab.pagesRead).toBe(2);
    expect((await shown(db)).map((r) => r.guid)).toEqual([...guids, 'zz-elsewhere']);
  });

  it('writes only the line items the lab\'s copy changes, a slice per request of the transaction', async () => {
    const { db, lab, changes, drain } = await setup();
    const guids = Array.from({ length: 250 }, (_, i) => `item-${String(i).padStart(4, '0')}`);
    await changes.addLineItems(ORDER, guids.map((g) => payload(g)));
    await drain();
    const written: number[] = [];
    const bulkPut = db.lineItems.bulkPut.bind(db.lineItems);
    db.lineItems.bulkPut = ((rows: Parameters<typeof bulkPut>[0], ...rest: unknown[]) => {
      written.push(rows.length);
      return (bulkPut as (...a: unknown[]) => ReturnType<typeof bulkPut>)(rows, ...rest);
    }) as typeof bulkPut;
    // The cart read again after its own changes were answered: nothing to write.
    await refreshOrderWith(ORDER, OWNER, lineItemCalls(lab.request), db);
    expect(written).toEqual([]);
    // Every line item changed at the lab (its cropped image made): written 100 at a time.
    for (const [g, item] of lab.items) lab.items.set(g, { ...item, photograph_cropped_url: `/cropped/${g}.jpg` });
    await refreshOrderWith(ORDER, OWNER, lineItemCalls(lab.request), db);
    expect(written).toEqual([100, 100, 50]);
    expect((await shown(db)).every((r) => r.photoUrl.startsWith('/cropped/'))).toBe(true);
  });

  it('does nothing offline', async () => {
    const { db, lab } = await setup();
    lab.fault = () => new ApiError('network', 'Failed to fetch');
    await refreshOrderWith(ORDER, OWNER, lineItemCalls(lab.request), db);
    expect(await db.orders.count()).toBe(0);
  });
});
