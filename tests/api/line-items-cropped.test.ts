import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labOrders, lineItems, photographs } from '../../server/db/schema.ts';
import { makeCroppedImage, queueMissingCroppedImages } from '../../server/services/line-item-crop.ts';
import { lacksCroppedImage } from '../../src/client-rules/cart-review.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { addItems, fullOrder, orderWithPhotos, payload, products, type Products } from './line-items-helpers.ts';
import { callAs, newOrder, photographer } from './photo-helpers.ts';

/** The cropped image of a line item: a pg-boss job cuts the stored crop out of the photo with sharp. */
let t: TestApp;
let p: Products;
beforeAll(async () => {
  t = await createTestApp({}, { jobs: true });
  p = await products(t);
});
afterAll(() => t.close());

async function croppedUrl(token: string, order: string, guid: string, not?: string | null): Promise<string> {
  let url: string | null = null;
  await expect
    .poll(
      async () => {
        url = (await fullOrder(t, token, order)).data.line_items.find((i) => i.guid === guid)?.photograph_cropped_url ?? null;
        return url !== null && url !== not;
      },
      { timeout: 25_000, interval: 250 },
    )
    .toBe(true);
  return url ?? '';
}

async function imageAt(url: string) {
  const res = await t.app.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('image/jpeg');
  return sharp(res.rawPayload);
}

const crop = (photo: string, x: number, y: number, w: number, h: number) => ({ source_photograph_guid: photo, crop_x: x, crop_y: y, crop_w: w, crop_h: h, photo_meta: {} });

describe('the cropped image', () => {
  it('is made from the stored crop, at its aspect, and made again when the crop changes', async () => {
    // Photos of 300 × 200 px.
    const { token, order, photos } = await orderWithPhotos(t, 1);
    const photo = photos[0] ?? '';
    const item = payload(photo, p.size.guid, { photograph: crop(photo, 10, 0, 50, 100) });
    expect((await addItems(t, token, order, [item])).status).toBe(201);
    const first = await croppedUrl(token, order, item.guid);
    expect(lacksCroppedImage(first)).toBe(false);
    const meta = await (await imageAt(first)).metadata();
    // 50 % of 300 wide, all of 200 high.
    expect({ width: meta.width, height: meta.height }).toEqual({ width: 150, height: 200 });

    const changed = await callAs(t.app, 'PATCH /lab_orders/:guid/line_items/:lineItemGuid', { params: { guid: order, lineItemGuid: item.guid }, body: { line_items: [{ ...item, photograph: crop(photo, 0, 25, 100, 50) }] } }, { token });
    expect(changed.status).toBe(200);
    // Until the new one exists, the review shows the photo (and checks again).
    expect(changed.json().data.photograph_cropped_url).toBeNull();
    const second = await croppedUrl(token, order, item.guid, first);
    const again = await (await imageAt(second)).metadata();
    expect({ width: again.width, height: again.height }).toEqual({ width: 300, height: 100 });
    // The image of the old crop is gone.
    expect((await t.app.inject({ method: 'GET', url: first })).statusCode).toBe(404);
  });

  it('crops a photo with EXIF orientation 6 as it is seen', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const [o] = await t.db.select().from(labOrders).where(eq(labOrders.guid, order));
    // Stored 1200 × 800 with orientation 6: seen 800 wide and 1200 tall; the top half red.
    const stored = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#0000ff' } })
      .composite([{ input: await sharp({ create: { width: 600, height: 800, channels: 3, background: '#ff0000' } }).png().toBuffer(), left: 0, top: 0 }])
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const key = `photos/${order}/${randomUUID()}.jpg`;
    await t.storage.put(key, stored, 'image/jpeg');
    const [photo] = await t.db
      .insert(photographs)
      .values({ labOrderId: o?.id ?? 0, fileName: 'IMG_0006.jpg', key, size: stored.length, checksum: randomBytes(32).toString('hex'), contentType: 'image/jpeg', width: 800, height: 1200 })
      .returning();
    const item = payload(photo?.guid ?? '', p.size.guid, { photograph: crop(photo?.guid ?? '', 0, 0, 100, 40) });
    expect((await addItems(t, token, order, [item])).status).toBe(201);
    const image = await imageAt(await croppedUrl(token, order, item.guid));
    const meta = await image.metadata();
    expect({ width: meta.width, height: meta.height, orientation: meta.orientation ?? 1 }).toEqual({ width: 800, height: 480, orientation: 1 });
    const { data } = await image.raw().toBuffer({ resolveWithObject: true });
    // The top of the photo as seen is red.
    expect(data[0]).toBeGreaterThan(200);
    expect(data[2]).toBeLessThan(60);
  });

  it('a job for a crop that has since changed writes nothing', async () => {
    const { token, order, photos } = await orderWithPhotos(t, 1);
    const photo = photos[0] ?? '';
    const item = payload(photo, p.size.guid);
    await addItems(t, token, order, [item]);
    await croppedUrl(token, order, item.guid);
    await t.db.update(lineItems).set({ croppedKey: null, cropVersion: 5 }).where(eq(lineItems.guid, item.guid));
    await makeCroppedImage(t, { lineItemGuid: item.guid, cropVersion: 4 });
    const [row] = await t.db.select().from(lineItems).where(eq(lineItems.guid, item.guid));
    expect(row?.croppedKey).toBeNull();
    await makeCroppedImage(t, { lineItemGuid: item.guid, cropVersion: 5 });
    const [made] = await t.db.select().from(lineItems).where(eq(lineItems.guid, item.guid));
    expect(made?.croppedKey).toContain('cropped');
  });

  it('housekeeping asks again for a cropped image long overdue, once per quarter hour', async () => {
    const { token, order, photos } = await orderWithPhotos(t, 1);
    const item = payload(photos[0] ?? '', p.size.guid);
    await addItems(t, token, order, [item]);
    await croppedUrl(token, order, item.guid);
    // As if the job was lost: no image, asked for long ago.
    await t.db.update(lineItems).set({ croppedKey: null, cropVersion: 3 }).where(eq(lineItems.guid, item.guid));
    const sent: object[] = [];
    const jobs = { send: async (_queue: string, data: object) => void sent.push(data) };
    const later = new Date(Date.now() + 16 * 60 * 1000);
    expect(await queueMissingCroppedImages({ db: t.db, jobs, now: () => new Date() })).toBe(0);
    expect(await queueMissingCroppedImages({ db: t.db, jobs, now: () => later })).toBeGreaterThanOrEqual(1);
    expect(sent).toContainEqual({ lineItemGuid: item.guid, cropVersion: 3 });
    const count = sent.length;
    expect(await queueMissingCroppedImages({ db: t.db, jobs, now: () => new Date(later.getTime() + 60 * 1000) })).toBe(0);
    expect(sent).toHaveLength(count);
  });
});
