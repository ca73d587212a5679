import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { photographs } from '../../server/db/schema.ts';
import { makeDerivatives } from '../../server/services/photo-derivatives.ts';
import { QUIET_MS, UploadActivity } from '../../server/services/upload-activity.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { newOrder, photographer, uploadSingle } from './photo-helpers.ts';

/**
 * Previews while photos are arriving (server/services/upload-activity.ts): each photo's are made as
 * soon as it is in, never held for the end of its order's upload, but one at a time while any
 * upload is in progress, in the order asked; two at once when none is. Jobs are only recorded
 * here: each test runs the job itself, on a clock that moves only when the job looks again.
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

/**
 * A clock that only moves when a waiting job looks again (each look yields to the event loop);
 * `duringSleep` runs at each look (more photos arriving, a job finishing).
 */
function fakeTime(duringSleep: (now: number) => void = () => {}) {
  const clock = { now: 1_000_000, slept: 0 };
  const activity = new UploadActivity({
    now: () => clock.now,
    sleep: async (ms) => {
      await new Promise((resolve) => setImmediate(resolve));
      clock.now += ms;
      clock.slept += ms;
      duringSleep(clock.now);
    },
  });
  return { clock, activity };
}

/** A preview job the test finishes by hand, recording when it starts and ends. */
function heldJob(name: string, events: string[]) {
  let finish = () => {};
  const finished = new Promise<void>((resolve) => (finish = resolve));
  return {
    finish,
    run: async () => {
      events.push(`start ${name}`);
      await finished;
      events.push(`end ${name}`);
    },
  };
}

describe('previews while photos are arriving', () => {
  it('are made as soon as the photo is in, while its order is still receiving photos', async () => {
    const { order, guid } = await acceptedPhoto();
    // The upload goes on the whole time: the old rule held the previews until it went quiet.
    const { clock, activity } = fakeTime(() => activity.touch(order));
    activity.touch(order);
    await makeDerivatives({ db: t.db, storage: t.storage, uploadActivity: activity }, { photoGuid: guid });
    expect(clock.slept).toBe(0);
    const keys = await keysOf(guid);
    expect(keys?.previewKey).toBeTruthy();
    expect(keys?.thumbnailKey).toBeTruthy();
  });

  it('are made one at a time while an upload is in progress, in the order asked', async () => {
    const events: string[] = [];
    const jobs = ['a', 'b', 'c'].map((name) => heldJob(name, events));
    const { activity } = fakeTime(() => activity.touch('busy order'));
    activity.touch('busy order');
    const turns = jobs.map((job) => activity.turn(job.run));
    await vi.waitFor(() => expect(events).toEqual(['start a']));
    jobs[0]?.finish();
    await vi.waitFor(() => expect(events).toEqual(['start a', 'end a', 'start b']));
    jobs[1]?.finish();
    jobs[2]?.finish();
    await Promise.all(turns);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('are made two at once when no upload is in progress, and once the upload goes quiet', async () => {
    const events: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((name) => heldJob(name, events));
    if (!a || !b || !c) throw new Error('three jobs');
    const idle = fakeTime();
    const both = [idle.activity.turn(a.run), idle.activity.turn(b.run)];
    await vi.waitFor(() => expect(events).toEqual(['start a', 'start b']));
    a.finish();
    b.finish();
    await Promise.all(both);

    // An upload that stops: the job waiting starts QUIET_MS after its last call, beside the one running.
    events.length = 0;
    const [d, e] = ['d', 'e'].map((name) => heldJob(name, events));
    if (!d || !e) throw new Error('two jobs');
    const { clock, activity } = fakeTime();
    activity.touch('order that goes quiet');
    const quietFrom = clock.now;
    const turns = [activity.turn(d.run), activity.turn(e.run)];
    await vi.waitFor(() => expect(events).toEqual(['start d', 'start e']));
    expect(clock.now - quietFrom).toBeGreaterThanOrEqual(QUIET_MS);
    d.finish();
    e.finish();
    await Promise.all(turns);
  });

  it('the lab calls of an upload mark its order busy', async () => {
    const now = { ms: 5_000_000 };
    const activity = new UploadActivity({ now: () => now.ms });
    const app = await createTestApp({}, { jobs: 'recorded', uploadActivity: activity });
    try {
      const { token } = await photographer(app);
      const order = await newOrder(app, token);
      expect(activity.receiving()).toBe(false);
      // create_presigned_url, the PUT and photograph_uploaded.
      expect((await uploadSingle(app, token, order, await jpeg(), 'IMG_2.jpg')).statusCode).toBe(201);
      expect(activity.receiving()).toBe(true);
      now.ms += QUIET_MS;
      expect(activity.receiving()).toBe(false);
    } finally {
      await app.close();
    }
  });
});
