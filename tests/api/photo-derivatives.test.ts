import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { photographs } from '../../server/db/schema.ts';
import { PREVIEW_PX, THUMBNAIL_PX, queueMissingDerivatives } from '../../server/services/photo-derivatives.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { noisyJpeg } from './hostile-files.ts';
import { newOrder, photographer, uploadSingle } from './photo-helpers.ts';

/** The pg-boss job that makes each accepted photo's preview and thumbnail (docs/architecture.md §2). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { jobs: true });
});
afterAll(() => t.close());

/** A camera JPEG stored 1200 × 800 with EXIF orientation 6: it is seen 800 wide and 1200 tall. */
const rotatedCameraJpeg = () =>
  sharp({ create: { width: 1200, height: 800, channels: 3, background: '#4a7' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();

async function waitForDerivatives(token: string, order: string, photoGuid: string) {
  let photo: Record<string, unknown> = {};
  await expect
    .poll(
      async () => {
        photo = (await callApi(t.app, 'GET /lab_orders/:guid/photographs/:photoGuid', { params: { guid: order, photoGuid } }, { token })).json().data;
        return photo.derivatives_ready;
      },
      { timeout: 25_000, interval: 250 },
    )
    .toBe(true);
  return photo as { photo_url: string; smallest_photo: string; presigned_photo_url: string };
}

const fetchImage = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('image/jpeg');
  return res.rawPayload;
};

describe('derivatives', () => {
  it('an upright thumbnail and preview of a photo with EXIF orientation 6, in sRGB, replace the original in the photo addresses', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const original = await rotatedCameraJpeg();
    const accepted = await uploadSingle(t, token, order, original, 'IMG_0006.jpg');
    expect(accepted.statusCode).toBe(201);
    const { guid, width, height } = accepted.json().data;
    // Width and height as the photo is seen.
    expect({ width, height }).toEqual({ width: 800, height: 1200 });

    const photo = await waitForDerivatives(token, order, guid);
    const thumbnail = await sharp(await fetchImage(photo.smallest_photo)).metadata();
    expect({ width: thumbnail.width, height: thumbnail.height }).toEqual({ width: Math.round((800 * THUMBNAIL_PX) / 1200), height: THUMBNAIL_PX });
    // Already upright: no orientation left for a viewer to apply twice.
    expect(thumbnail.orientation ?? 1).toBe(1);
    const preview = await sharp(await fetchImage(photo.photo_url)).metadata();
    // Never enlarged past the original.
    expect({ width: preview.width, height: preview.height }).toEqual({ width: 800, height: 1200 });
    expect(preview.icc).toBeDefined();
    expect(preview.space).toBe('srgb');
    // The original stays as it was sent.
    expect((await t.app.inject({ method: 'GET', url: photo.presigned_photo_url })).rawPayload.equals(original)).toBe(true);
  });

  it('a large PNG with transparency gets a JPEG preview bounded to the screen size, on white', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const png = await sharp({ create: { width: 3000, height: 1000, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
    const accepted = await uploadSingle(t, token, order, png, 'scan.png');
    expect(accepted.statusCode).toBe(201);
    expect(accepted.json().data.content_type).toBe('image/png');
    const photo = await waitForDerivatives(token, order, accepted.json().data.guid);
    const preview = await fetchImage(photo.photo_url);
    const meta = await sharp(preview).metadata();
    expect({ width: meta.width, height: meta.height }).toEqual({ width: PREVIEW_PX, height: Math.round(PREVIEW_PX / 3) });
    const { dominant } = await sharp(preview).stats();
    expect(dominant).toEqual({ r: 248, g: 248, b: 248 });
  });

  it('a JPEG damaged in the middle (its header and end intact) is accepted, then marked unreadable with a plain reason, and never queued again', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const damaged = Buffer.from(await noisyJpeg(800, 600));
    // Restart markers where none belong, half-way through the image data: the upload's checks
    // (header, end marker, checksum) pass, and only a full decode finds the damage.
    const middle = Math.floor(damaged.length / 2);
    for (let i = middle; i < middle + 4000; i += 2) damaged.set([0xff, 0xd3], i);
    const accepted = await uploadSingle(t, token, order, damaged, 'IMG_0042.jpg');
    expect(accepted.statusCode).toBe(201);
    const guid = accepted.json().data.guid as string;
    expect(accepted.json().data.unreadable_reason).toBeNull();
    let photo: { unreadable_reason: string | null; derivatives_ready: boolean } = { unreadable_reason: null, derivatives_ready: false };
    await expect
      .poll(
        async () => {
          photo = (await callApi(t.app, 'GET /lab_orders/:guid/photographs/:photoGuid', { params: { guid: order, photoGuid: guid } }, { token })).json().data;
          return photo.unreadable_reason;
        },
        { timeout: 25_000, interval: 250 },
      )
      .toBe('IMG_0042.jpg could not be read: its image data is damaged, so the lab cannot print it. Please export it again and upload it again.');
    expect(photo.derivatives_ready).toBe(false);
    // The job finished (no retry), and housekeeping does not ask for it again, however late.
    const queued: unknown[] = [];
    const jobs = { send: async (queue: string, data: object) => void queued.push({ queue, data }) };
    expect(await queueMissingDerivatives({ db: t.db, jobs, now: () => new Date(Date.now() + 60 * 60 * 1000) })).toBe(0);
    expect(queued).toEqual([]);
    // The order's list shows it too, so the upload screen can.
    const listed = (await callApi(t.app, 'GET /lab_orders/:guid/lab_order_photographs', { params: { guid: order }, query: {} }, { token })).json();
    expect(JSON.stringify(listed)).toContain('IMG_0042.jpg could not be read');
  });

  it('housekeeping queues again a photo whose derivatives never came (its job was lost), and only such photos', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const lost = (await uploadSingle(t, token, order, await rotatedCameraJpeg(), 'lost.jpg')).json().data.guid;
    await waitForDerivatives(token, order, lost);
    // As if its job had never run.
    await t.db.update(photographs).set({ previewKey: null, thumbnailKey: null }).where(eq(photographs.guid, lost));
    const queued: unknown[] = [];
    const jobs = { send: async (queue: string, data: object) => void queued.push({ queue, data }) };
    expect(await queueMissingDerivatives({ db: t.db, jobs, now: () => new Date() })).toBe(0);
    const later = new Date(Date.now() + 20 * 60 * 1000);
    expect(await queueMissingDerivatives({ db: t.db, jobs, now: () => later })).toBe(1);
    expect(queued).toEqual([{ queue: 'photo-derivatives', data: { photoGuid: lost } }]);
    // However often housekeeping runs, it asks again only once the new request is overdue too.
    expect(await queueMissingDerivatives({ db: t.db, jobs, now: () => new Date(later.getTime() + 60 * 1000) })).toBe(0);
    expect(await queueMissingDerivatives({ db: t.db, jobs, now: () => new Date(later.getTime() + 20 * 60 * 1000) })).toBe(1);
  });
});
