import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photographs } from '../../server/db/schema.ts';
import { makeDerivatives } from '../../server/services/photo-derivatives.ts';
import { MAX_DEFER_MS, QUIET_MS, UploadActivity } from '../../server/services/upload-activity.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { newOrder, photographer, uploadSingle } from './photo-helpers.ts';

/**
 * The preview job waits while its order is receiving photos (server/services/upload-activity.ts),
 * and still makes the previews once the upload goes quiet, or once it has waited MAX_DEFER_MS.
 * Jobs are only recorded here: each test runs the job itself, on a clock it moves.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { jobs: 'recorded' });
});
afterAll(() => t.close());

const jpeg = (background = '#468') => sharp({ create: { width: 600, height: 400, channels: 3, background } }).jpeg().toBuffer();

/** An accepted photo, of a new order unless one is given; its derivatives not made yet. */
async function acceptedPhoto(into?: { order: string; token: string }, background?: string): Promise<{ order: string; token: string; guid: string }> {
  const token = into?.token ?? (await photographer(t)).token;
  const order = into?.order ?? (await newOrder(t, token));
  const accepted = await uploadSingle(t, token, order, await jpeg(background), 'IMG_1.jpg');
  expect(accepted.statusCode).toBe(201);
  return { order, token, guid: accepted.json().data.guid as string };
}

const keysOf = async (guid: string) => (await t.db.select({ previewKey: photographs.previewKey, thumbnailKey: photographs.thumbnailKey }).from(photographs).where(eq(photographs.guid, guid)))[0];

/** A clock that only moves when the job sleeps; `duringSleep` runs at each sleep (more photos arriving). */
function fakeTime(duringSleep: (now: number) => void = () => {}) {
  const clock = { now: 1_000_000, slept: 0 };
  const activity = new UploadActivity({
    now: () => clock.now,
    sleep: async (ms) => {
      clock.now += ms;
      clock.slept += ms;
      duringSleep(clock.now);
    },
  });
  return { clock, activity };
}

describe('previews while an order is receiving photos', () => {
  it('wait until the order has been quiet for QUIET_MS, then are made', async () => {
    const { order, guid } = await acceptedPhoto();
    let photosStillArriving = 10;
    const { clock, activity } = fakeTime(() => {
      if (photosStillArriving-- > 0) activity.touch(order);
    });
    activity.touch(order);
    await makeDerivatives({ db: t.db, storage: t.storage, uploadActivity: activity }, { photoGuid: guid });
    // Ten more calls at each look, then QUIET_MS without one.
    expect(clock.slept).toBeGreaterThanOrEqual(QUIET_MS);
    expect(clock.slept).toBeLessThan(MAX_DEFER_MS);
    const keys = await keysOf(guid);
    expect(keys?.previewKey).toBeTruthy();
    expect(keys?.thumbnailKey).toBeTruthy();
  });

  it('an upload that never stops holds them back MAX_DEFER_MS at most', async () => {
    const { order, token, guid } = await acceptedPhoto();
    const { guid: next } = await acceptedPhoto({ order, token }, '#864');
    const { clock, activity } = fakeTime(() => activity.touch(order));
    activity.touch(order);
    await makeDerivatives({ db: t.db, storage: t.storage, uploadActivity: activity }, { photoGuid: guid });
    expect(clock.slept).toBeGreaterThanOrEqual(MAX_DEFER_MS);
    expect(clock.slept).toBeLessThan(MAX_DEFER_MS + QUIET_MS);
    expect((await keysOf(guid))?.previewKey).toBeTruthy();
    // The same busy period does not hold the next photo's previews again.
    const before = clock.slept;
    await makeDerivatives({ db: t.db, storage: t.storage, uploadActivity: activity }, { photoGuid: next });
    expect(clock.slept).toBe(before);
    expect((await keysOf(next))?.previewKey).toBeTruthy();
  });

  it('another order receiving photos does not hold them back', async () => {
    const { guid } = await acceptedPhoto();
    const { order: busy } = await acceptedPhoto();
    const { clock, activity } = fakeTime(() => activity.touch(busy));
    activity.touch(busy);
    await makeDerivatives({ db: t.db, storage: t.storage, uploadActivity: activity }, { photoGuid: guid });
    expect(clock.slept).toBe(0);
    expect((await keysOf(guid))?.previewKey).toBeTruthy();
  });

  it('the lab calls of an upload mark its order busy', async () => {
    const now = { ms: 5_000_000 };
    const activity = new UploadActivity({ now: () => now.ms });
    const app = await createTestApp({}, { jobs: 'recorded', uploadActivity: activity });
    try {
      const { token } = await photographer(app);
      const order = await newOrder(app, token);
      expect(activity.holds(order)).toBe(false);
      // create_presigned_url, the PUT and photograph_uploaded.
      expect((await uploadSingle(app, token, order, await jpeg(), 'IMG_2.jpg')).statusCode).toBe(201);
      expect(activity.holds(order)).toBe(true);
      now.ms += QUIET_MS;
      expect(activity.holds(order)).toBe(false);
    } finally {
      await app.close();
    }
  });
});
