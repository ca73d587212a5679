import { existsSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labOrders, photographs, storageUploads } from '../../server/db/schema.ts';
import { MAX_IMAGE_PIXELS } from '../../server/services/file-checks.ts';
import { createTestApp, expectErrorBody, type TestApp } from './helper.ts';
import { decompressionBombPng, noisyJpeg, textFile } from './hostile-files.ts';
import { MiB, bigJpeg, complete, confirm, newOrder, photographer, presign, put, putPart, sha256, startMultipart } from './photo-helpers.ts';

/** photograph_uploaded checks the stored object; a refused photo is removed at once (docs/upload-and-sync.md §1). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/**
 * Presigns with what the client declares, PUTs `sent`, confirms; expects a 422, the object gone
 * from both keys, no photo, no upload record, and the URL dead. Answers the reason given.
 */
async function refusal(sent: Buffer, declared: { size?: number; checksum?: string; name?: string; contentType?: string } = {}): Promise<string> {
  const { token } = await photographer(t);
  const order = await newOrder(t, token);
  const name = declared.name ?? 'photo.jpg';
  const signed = await presign(t, token, order, sent, {
    photo_file_name: name,
    size: declared.size ?? sent.length,
    checksum: declared.checksum ?? sha256(sent),
    content_type: declared.contentType ?? 'image/jpeg',
  });
  expect(signed.statusCode).toBe(200);
  const { signedUrl, key, headers } = signed.json();
  expect((await put(t, signedUrl, sent, headers)).statusCode).toBe(200);
  const refused = await confirm(t, token, order, { key, photo_file_name: name });
  expect(refused.statusCode).toBe(422);
  const { message } = expectErrorBody(refused.json(), 422);
  expect(existsSync(t.storage.path(key))).toBe(false);
  expect(existsSync(t.storage.path(key.replace(/^incoming\//, '')))).toBe(false);
  expect(await t.db.select().from(storageUploads).where(eq(storageUploads.key, key))).toEqual([]);
  const [row] = await t.db.select({ id: labOrders.id }).from(labOrders).where(eq(labOrders.guid, order));
  expect(await t.db.select().from(photographs).where(eq(photographs.labOrderId, row?.id ?? 0))).toEqual([]);
  expect((await put(t, signedUrl, sent, headers)).statusCode).toBe(403);
  return message;
}

describe('refused photos are removed, with the reason', () => {
  it('a text file named .jpg', async () => {
    expect(await refusal(textFile())).toBe('photo.jpg must be a JPEG or PNG file. This file is a text file.');
  });

  it('a JPEG cut off half-way (the checksum of what was sent matches: the file itself is broken)', async () => {
    const jpeg = await noisyJpeg(800, 600);
    expect(await refusal(jpeg.subarray(0, Math.floor(jpeg.length / 2)))).toBe('photo.jpg is incomplete or damaged: the upload may have been cut off. Please upload it again.');
  });

  it('fewer bytes than declared', async () => {
    const jpeg = await noisyJpeg(400, 300);
    expect(await refusal(jpeg, { size: jpeg.length + 100 })).toBe(`photo.jpg arrived with ${jpeg.length} bytes instead of ${jpeg.length + 100}: the upload was cut off or changed on the way. Please upload it again.`);
  });

  it('a checksum that differs from the bytes', async () => {
    const jpeg = await noisyJpeg(400, 300);
    expect(await refusal(jpeg, { checksum: 'ab'.repeat(32) })).toBe("photo.jpg did not arrive intact (its checksum differs from the file's). Please upload it again.");
  });

  it('a decompression bomb (a 50 KB PNG of 400 megapixels), from its header', async () => {
    expect(await refusal(decompressionBombPng(), { name: 'bomb.png', contentType: 'image/png' })).toBe(`bomb.png is 20000 × 20000 pixels (400 megapixels); the lab takes images up to ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`);
  });

  it('a checksum sent with photograph_uploaded is checked too', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const jpeg = await noisyJpeg(100, 100);
    const { signedUrl, key, headers } = (await presign(t, token, order, jpeg)).json();
    await put(t, signedUrl, jpeg, headers);
    const refused = await confirm(t, token, order, { key, photo_file_name: 'photo.jpg', checksum: 'CD'.repeat(32), size: jpeg.length });
    expect(expectErrorBody(refused.json(), 422).message).toMatch(/did not arrive intact/);
  });

  it('a single PUT longer than declared is refused by the store (413) and leaves nothing', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const jpeg = await noisyJpeg(100, 100);
    const { signedUrl, key, headers } = (await presign(t, token, order, jpeg, { size: jpeg.length - 10, checksum: sha256(jpeg) })).json();
    const tooLong = await put(t, signedUrl, jpeg, headers);
    expect(tooLong.statusCode).toBe(413);
    expectErrorBody(tooLong.json(), 413);
    expect(existsSync(t.storage.path(key))).toBe(false);
  });

  it('a multipart upload refused after complete_upload takes its parts and object with it', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = Buffer.concat([textFile(), Buffer.alloc(6 * MiB, 0x41)]);
    const upload = await startMultipart(t, token, order, file);
    const parts = [];
    for (const p of upload.parts) parts.push({ partNumber: p.partNumber, etag: await putPart(t, upload, file, p.partNumber) });
    expect((await complete(t, token, order, upload.uploadId, parts)).statusCode).toBe(200);
    const refused = await confirm(t, token, order, { key: upload.key, photo_file_name: 'notes.jpg' });
    expect(expectErrorBody(refused.json(), 422).message).toBe('notes.jpg must be a JPEG or PNG file. This file is a text file.');
    expect(existsSync(t.storage.path(upload.key.replace(/^incoming\//, '')))).toBe(false);
  });
});

describe('only open orders take photos', () => {
  it('create_presigned_url, complete_upload and photograph_uploaded answer 409 OrderNotOpen on a paid order', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await bigJpeg(6 * MiB);
    const upload = await startMultipart(t, token, order, file);
    const etag = await putPart(t, upload, file, 1);
    await t.db.update(labOrders).set({ status: 'paid' }).where(eq(labOrders.guid, order));

    for (const res of [
      await presign(t, token, order, file),
      await complete(t, token, order, upload.uploadId, [{ partNumber: 1, etag }]),
      await confirm(t, token, order, { key: upload.key, photo_file_name: 'late.jpg' }),
    ]) {
      const error = expectErrorBody(res.json(), 409);
      expect(error.class_name).toBe('OrderNotOpen');
      expect(error.message).toBe('Order needs to be in open status to upload photos.');
    }
  });
});
