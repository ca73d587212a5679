/**
 * The orders list's cover photo comes from lab_orders.cover_key, kept by triggers on photographs
 * (migration 0020_order_cover_key), not from looking up each order's first photo. These tests hold
 * the kept key against the truth (the first photo's thumbnail, else its original) across every
 * way photos change: inserts one by one and in bulk, the derivatives job's thumbnail, updates that
 * touch no cover, deletes (the cover itself, a later photo, all of them, the order's cascade), a
 * photo moved to another order, rolled-back transactions and truncation; and check the list's
 * cover_photo_url follows it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labOrders, photographs } from '../../server/db/schema.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, createUser, signIn, type TestApp } from './helper.ts';

let t: TestApp;
let owner: Awaited<ReturnType<typeof createUser>>;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t.db, { firstName: 'Cora', lastName: 'Cover' });
  token = await signIn(t.app, owner.user.email, owner.password);
});
afterAll(() => t.close());

async function newOrders(n: number): Promise<number[]> {
  const rows = await t.db
    .insert(labOrders)
    .values(Array.from({ length: n }, () => ({ userGuid: owner.user.guid, orderName: `Cover ${randomUUID()}` })))
    .returning({ id: labOrders.id });
  return rows.map((r) => r.id);
}

const photo = (labOrderId: number, thumbnailKey: string | null = null) => ({
  labOrderId,
  fileName: 'IMG_1.jpg',
  key: `photos/${randomUUID()}.jpg`,
  thumbnailKey,
  size: 1000,
  checksum: randomBytes(32).toString('hex'),
  contentType: 'image/jpeg',
  width: 300,
  height: 200,
});

/** Orders whose kept cover differs from the truth (none when the triggers did their work). */
async function drift(): Promise<unknown[]> {
  type Row = { id: number; kept: string | null; truth: string | null };
  const { rows } = (await t.db.execute(sql`
    select o.id, o.cover_key as kept, (select coalesce(p.thumbnail_key, p.key) from photographs p where p.lab_order_id = o.id order by p.id limit 1) as truth
    from lab_orders o`)) as unknown as { rows: Row[] };
  return rows.filter((r) => r.kept !== r.truth);
}

const coverOf = async (id: number) => (await t.db.select({ c: labOrders.coverKey }).from(labOrders).where(eq(labOrders.id, id)))[0]?.c;

describe('lab_orders.cover_key', () => {
  it('follows inserts, the thumbnail, deletes and moves, and the list shows it signed', async () => {
    const [a = 0, b = 0] = await newOrders(2);
    expect(await coverOf(a)).toBeNull();

    const [first, second] = await t.db.insert(photographs).values([photo(a), photo(a)]).returning();
    if (!first || !second) throw new Error('photos not stored');
    expect(await coverOf(a)).toBe(first.key);

    // The derivatives job makes the thumbnail: the cover becomes it.
    await t.db.update(photographs).set({ thumbnailKey: `thumbs/${first.guid}.webp`, previewKey: `previews/${first.guid}.webp` }).where(eq(photographs.id, first.id));
    expect(await coverOf(a)).toBe(`thumbs/${first.guid}.webp`);
    // Housekeeping's updates leave it.
    await t.db.update(photographs).set({ derivativesRequestedAt: new Date() }).where(eq(photographs.labOrderId, a));
    expect(await coverOf(a)).toBe(`thumbs/${first.guid}.webp`);

    const card = (await callApi(t.app, 'GET /lab_orders', { query: {} }, { token })).json().data;
    const [orderA] = await t.db.select({ guid: labOrders.guid }).from(labOrders).where(eq(labOrders.id, a));
    expect(card.find((c) => c.attributes.guid === orderA?.guid)?.attributes.cover_photo_url).toContain(`thumbs/${first.guid}.webp`);

    // The first photo moves to order b (a merge): b gets it, a falls back to its next photo.
    await t.db.update(photographs).set({ labOrderId: b }).where(eq(photographs.id, first.id));
    expect([await coverOf(a), await coverOf(b)]).toEqual([second.key, `thumbs/${first.guid}.webp`]);

    await t.db.delete(photographs).where(eq(photographs.id, second.id));
    expect(await coverOf(a)).toBeNull();
    expect(await drift()).toEqual([]);
  });

  it('stays equal to the first photo through any sequence of changes, and a rolled-back one changes nothing', async () => {
    const orders = await newOrders(4);
    type Step = { kind: 'add'; order: number; n: number; thumbs: boolean } | { kind: 'thumb' | 'remove' | 'move'; pick: number; order: number };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), order: fc.nat(3), n: fc.integer({ min: 1, max: 3 }), thumbs: fc.boolean() }),
      fc.record({ kind: fc.constantFrom('thumb' as const, 'remove' as const, 'move' as const), pick: fc.nat(20), order: fc.nat(3) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        for (const s of steps) {
          const target = orders[s.order] ?? 0;
          if (s.kind === 'add') {
            await t.db.insert(photographs).values(Array.from({ length: s.n }, () => photo(target, s.thumbs ? `thumbs/${randomUUID()}.webp` : null)));
            continue;
          }
          const present = await t.db.select({ id: photographs.id }).from(photographs).where(inArray(photographs.labOrderId, orders)).orderBy(photographs.id);
          const chosen = present[s.pick % Math.max(1, present.length)]?.id;
          if (chosen === undefined) continue;
          if (s.kind === 'thumb') await t.db.update(photographs).set({ thumbnailKey: `thumbs/${randomUUID()}.webp` }).where(eq(photographs.id, chosen));
          if (s.kind === 'remove') await t.db.delete(photographs).where(eq(photographs.id, chosen));
          if (s.kind === 'move') await t.db.update(photographs).set({ labOrderId: target }).where(eq(photographs.id, chosen));
        }
        expect(await drift()).toEqual([]);
      }),
      { numRuns: 15 },
    );

    const before = await coverOf(orders[0] ?? 0);
    await expect(
      t.db.transaction(async (tx) => {
        await tx.insert(photographs).values(photo(orders[0] ?? 0, 'thumbs/rolled-back.webp'));
        await tx.delete(photographs).where(eq(photographs.labOrderId, orders[0] ?? 0));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await coverOf(orders[0] ?? 0)).toBe(before);
    expect(await drift()).toEqual([]);
  });

  it("goes with the order's cascade, and every cover goes when the photos are truncated", async () => {
    const [gone = 0, kept = 0] = await newOrders(2);
    await t.db.insert(photographs).values([photo(gone), photo(kept)]);
    await t.db.delete(labOrders).where(eq(labOrders.id, gone));
    expect(await drift()).toEqual([]);
    expect(await coverOf(kept)).not.toBeNull();

    await t.db.execute(sql`truncate ${photographs} cascade`);
    expect(await coverOf(kept)).toBeNull();
    expect(await drift()).toEqual([]);
  });
});
