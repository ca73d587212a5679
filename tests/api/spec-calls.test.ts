import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys } from '../../server/db/schema.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, expectErrorBody, type TestApp } from './helper.ts';
import { noisyJpeg } from './hostile-files.ts';
import { addItems, fullOrder, orderWithPhotos, products, type LineItemBody, type Products } from './line-items-helpers.ts';
import { MiB, bigJpeg, callAs, complete, confirm, multipartUpload, newOrder, photographer, put, putPart, sha256, singleUpload } from './photo-helpers.ts';

/**
 * The spec's calls as docs/orders.md §7 writes them, as a partner's client built from that table sends
 * them: no size or checksum for a single PUT, no checksum for multipart, the file name alone to
 * confirm, and line items without a guid. Our own client sends all of these (the other files).
 */
let t: TestApp;
let p: Products;
beforeAll(async () => {
  t = await createTestApp();
  p = await products(t);
});
afterAll(() => t.close());

const presignAsSpec = (token: string, order: string, name: string, extra: { multipart?: boolean; size?: number } = {}) =>
  callAs(t.app, 'POST /lab_orders/:guid/create_presigned_url', { params: { guid: order }, body: { lab_order_guid: order, photo_file_name: name, content_type: 'image/jpeg', ...extra } }, { token });

describe('create_presigned_url and photograph_uploaded as the spec writes them', () => {
  it('one PUT with no size or checksum, confirmed by file name alone: the lab measures and hashes the photo', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await noisyJpeg(500, 300);
    const signed = await presignAsSpec(token, order, 'IMG_0001.jpg');
    expect(signed.status).toBe(200);
    const { signedUrl, headers } = singleUpload(signed.json());
    expect((await put(t, signedUrl, file, headers)).statusCode).toBe(200);

    const done = await confirm(t, token, order, { photo_file_name: 'IMG_0001.jpg' });
    expect(done.statusCode).toBe(201);
    expect(done.json().data).toMatchObject({ photo_file_name: 'IMG_0001.jpg', size: file.length, checksum: sha256(file), width: 500, height: 300 });
    // Sent again (its answer was lost): the same photo, nothing twice.
    const again = await confirm(t, token, order, { photo_file_name: 'IMG_0001.jpg' });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.guid).toBe(done.json().data.guid);
    expect((await callApi(t.app, 'GET /lab_orders/:guid/lab_order_photographs', { params: { guid: order }, query: {} }, { token })).json().meta.total).toBe(1);
  });

  it('by file name: the upload that arrived is confirmed, one still on its way is named, and one never started is refused', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    expect((await presignAsSpec(token, order, 'IMG_0002.jpg')).status).toBe(200);
    const waiting = await confirm(t, token, order, { photo_file_name: 'IMG_0002.jpg' });
    expect(waiting.statusCode).toBe(409);
    expectErrorBody(waiting.json(), 409);
    expect(waiting.json().error.user_message.message).toContain('IMG_0002.jpg has not been uploaded completely yet');

    // A second address for the same name (the first try was abandoned): the one that arrives counts.
    const file = await noisyJpeg(120, 80);
    const second = singleUpload((await presignAsSpec(token, order, 'IMG_0002.jpg')).json());
    expect((await put(t, second.signedUrl, file, second.headers)).statusCode).toBe(200);
    expect((await confirm(t, token, order, { photo_file_name: 'IMG_0002.jpg' })).statusCode).toBe(201);

    const never = await confirm(t, token, order, { photo_file_name: 'IMG_9999.jpg' });
    expect(never.statusCode).toBe(404);
    expect(never.json().error.user_message.message).toBe('No upload of IMG_9999.jpg was started for this order. Ask for its upload address (create_presigned_url) and send it first.');
  });

  it("another photographer's upload of the same name is not found by name", async () => {
    const a = await photographer(t);
    const b = await photographer(t);
    const order = await newOrder(t, a.token);
    const file = await noisyJpeg(64, 64);
    const signed = singleUpload((await presignAsSpec(a.token, order, 'IMG_0003.jpg')).json());
    expect((await put(t, signed.signedUrl, file, signed.headers)).statusCode).toBe(200);
    expect((await confirm(t, b.token, order, { photo_file_name: 'IMG_0003.jpg' })).statusCode).toBe(404);
  });

  it('multipart without a checksum, confirmed by name; multipart without a size is refused naming size', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await bigJpeg(9 * MiB);
    const started = await presignAsSpec(token, order, 'IMG_0004.jpg', { multipart: true, size: file.length });
    expect(started.status).toBe(200);
    const upload = multipartUpload(started.json());
    const etags = [];
    for (const part of upload.parts) etags.push({ partNumber: part.partNumber, etag: await putPart(t, upload, file, part.partNumber) });
    expect((await complete(t, token, order, upload.uploadId, etags)).statusCode).toBe(200);
    const done = await confirm(t, token, order, { photo_file_name: 'IMG_0004.jpg' });
    expect(done.statusCode).toBe(201);
    expect(done.json().data).toMatchObject({ size: file.length, checksum: sha256(file) });

    const sizeless = await presignAsSpec(token, order, 'IMG_0005.jpg', { multipart: true });
    expect(sizeless.status).toBe(422);
    expect(expectErrorBody(sizeless.json(), 422).message).toBe('size must be the number of bytes of the photo.');
  });
});

describe('line items as the spec writes them', () => {
  it('a line item sent without a guid gets one made by the lab', async () => {
    const { token, order, photos } = await orderWithPhotos(t, 1);
    const photo = photos[0] ?? '';
    // docs/orders.md §7's creation payload: no guid.
    const item: LineItemBody = {
      imageName: 'IMG_1000.jpg',
      quantity: 2,
      print_size: p.size.guid,
      finishing_service: null,
      print_border: 'none',
      notes: 'As the spec sends it',
      source_photograph_guid: photo,
      photograph: { source_photograph_guid: photo, crop_x: 0, crop_y: 0, crop_h: 100, crop_w: 100, photo_meta: {} },
    };
    const res = await addItems(t, token, order, [item]);
    expect(res.status).toBe(201);
    const [line] = (await fullOrder(t, token, order)).data.line_items;
    expect(line?.guid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(line).toMatchObject({ quantity: 2, notes: 'As the spec sends it' });
  });

  it('the same request without guids, sent again under its key after a crash lost its answer, adds the line once', async () => {
    const { token, order, photos } = await orderWithPhotos(t, 1);
    const photo = photos[0] ?? '';
    const item = { quantity: 1, print_size: p.size.guid, finishing_service: null, source_photograph_guid: photo, photograph: { source_photograph_guid: photo, crop_x: 0, crop_y: 0, crop_h: 100, crop_w: 100 } };
    expect((await addItems(t, token, order, [item], 'spec-line-crash')).status).toBe(201);
    await t.db.update(idempotencyKeys).set({ statusCode: null, response: null, createdAt: sql`now() - interval '2 minutes'` }).where(eq(idempotencyKeys.key, 'spec-line-crash'));
    expect((await addItems(t, token, order, [item], 'spec-line-crash')).status).toBe(201);
    const lines = (await fullOrder(t, token, order)).data.line_items;
    expect(lines.map((l) => l.quantity)).toEqual([1]);
  });
});
