import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photographs, storageUploads } from '../../server/db/schema.ts';
import { purgeExpiredUploads } from '../../server/services/upload-service.ts';
import { api, createTestApp, expectErrorBody, type TestApp } from './helper.ts';
import { noisyJpeg } from './hostile-files.ts';
import { callApi } from './contract-call.ts';
import {
  MiB,
  bigJpeg,
  callAs,
  complete,
  confirm,
  multipartUpload,
  newKey,
  newOrder,
  photographer,
  presign,
  put,
  putPart,
  renewParts,
  sha256,
  singleUpload,
  startMultipart,
  uploadSingle,
} from './photo-helpers.ts';

/** The whole upload of docs/upload-and-sync.md §1 through inject, the PUTs to the signed URLs included. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const download = async (url: string) => (await t.app.inject({ method: 'GET', url })).rawPayload;

describe('one PUT', () => {
  it('presign → PUT → photograph_uploaded: the photo joins the order, listed and readable, and its key is sealed', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await noisyJpeg(600, 400);
    const signed = await presign(t, token, order, file);
    expect(signed.statusCode).toBe(200);
    const { signedUrl, key, headers } = signed.json();
    expect(headers).toEqual({ 'content-type': 'image/jpeg' });
    expect(key).toMatch(new RegExp(`^incoming/photos/${order}/[0-9a-f-]{36}\\.jpg$`));
    const stored = await put(t, signedUrl, file, headers);
    expect(stored.statusCode).toBe(200);
    expect(stored.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);

    const done = await confirm(t, token, order, { key, photo_file_name: 'photo.jpg', checksum: sha256(file), size: file.length });
    expect(done.statusCode).toBe(201);
    const photo = done.json().data;
    expect(photo).toMatchObject({ photo_file_name: 'photo.jpg', width: 600, height: 400, size: file.length, checksum: sha256(file), content_type: 'image/jpeg', derivatives_ready: false });
    // Until the derivatives exist, every address shows the original.
    expect((await download(photo.presigned_photo_url)).equals(file)).toBe(true);
    expect((await download(photo.smallest_photo)).equals(file)).toBe(true);

    const list = await callApi(t.app, 'GET /lab_orders/:guid/lab_order_photographs', { params: { guid: order }, query: {} }, { token });
    expect(list.json()).toMatchObject({ data: [{ guid: photo.guid }], meta: { total: 1, page: 1, per_page: 100 } });
    expect((await callApi(t.app, 'GET /lab_orders/:guid/photographs/:photoGuid', { params: { guid: order, photoGuid: photo.guid } }, { token })).json().data).toEqual(photo);
    expect((await callApi(t.app, 'GET /lab_orders/:guid', { params: { guid: order } }, { token })).json().data.attributes).toMatchObject({ photo_count: 1, images: [photo] });

    const again = await put(t, signedUrl, file, headers);
    expect(again.statusCode).toBe(409);
    expectErrorBody(again.json(), 409);
  });

  it('pages the photos of an order in upload order', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    for (let i = 1; i <= 3; i++) expect((await uploadSingle(t, token, order, await noisyJpeg(40 + i, 30), `IMG_${i}.jpg`)).statusCode).toBe(201);
    const page2 = await callApi(t.app, 'GET /lab_orders/:guid/lab_order_photographs', { params: { guid: order }, query: { page: 2, per_page: 2 } }, { token });
    expect(page2.json().meta).toEqual({ total: 3, page: 2, per_page: 2 });
    expect(page2.json().data.map((p) => p.photo_file_name)).toEqual(['IMG_3.jpg']);
    expect((await callApi(t.app, 'GET /lab_orders/:guid/lab_order_photographs', { params: { guid: order }, query: { per_page: 501 } }, { token })).status).toBe(422);
  });

  it('refuses a photo above 200 MB or of another type before any upload, with the reason', async () => {
    const { token, user } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await noisyJpeg(20, 20);
    const huge = await presign(t, token, order, file, { size: 250 * MiB });
    expect(expectErrorBody(huge.json(), 422).message).toBe('This photo is 250 MB; the lab takes photos up to 200 MB each.');
    const gif = await presign(t, token, order, file, { content_type: 'image/gif' });
    expect(expectErrorBody(gif.json(), 422).message).toBe('Photos must be JPEG or PNG files.');
    // A body that is no object at all is refused, not a crash.
    for (const payload of ['"photo.jpg"', '42', 'null', '[]']) {
      const odd = await t.app.inject({ method: 'POST', url: api(`/lab_orders/${order}/create_presigned_url`), payload, headers: { token, 'content-type': 'application/json' } });
      expect([400, 422]).toContain(odd.statusCode);
    }
    expect(await t.db.select().from(storageUploads).where(eq(storageUploads.ownerGuid, user.guid))).toEqual([]);
  });
});

describe('multipart', () => {
  it('parts PUT to signed part URLs answer ETags, complete joins them in order, and the photo joins the order', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await bigJpeg(17 * MiB);
    const upload = await startMultipart(t, token, order, file);
    expect(upload.partSize).toBeGreaterThanOrEqual(5 * MiB);
    expect(upload.parts.map((p) => p.partNumber)).toEqual([1, 2, 3]);
    // Out of order, as concurrent PUTs arrive.
    const etags = new Map<number, string>();
    for (const n of [3, 1, 2]) etags.set(n, await putPart(t, upload, file, n));
    const parts = [1, 2, 3].map((n) => ({ partNumber: n, etag: etags.get(n) ?? '' }));
    const done = await complete(t, token, order, upload.uploadId, parts);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ key: upload.key });
    // A lost answer: completing again answers the same key.
    expect((await complete(t, token, order, upload.uploadId, parts)).json()).toEqual({ key: upload.key });

    const confirmed = await confirm(t, token, order, { key: upload.key, photo_file_name: 'big.jpg', checksum: sha256(file), size: file.length });
    expect(confirmed.statusCode).toBe(201);
    expect((await download(confirmed.json().data.presigned_photo_url)).equals(file)).toBe(true);
    // Nothing staged is left next to the object.
    const folder = dirname(t.storage.path(upload.key));
    expect(readdirSync(folder).filter((f) => f.includes('.part-'))).toEqual([]);
  });

  it('an expired part URL answers 403 SignatureExpired; fresh URLs for that part finish the upload', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await bigJpeg(6 * MiB);
    const upload = await startMultipart(t, token, order, file);
    const first = await putPart(t, upload, file, 1);
    t.clock.now = new Date(t.clock.now.getTime() + 16 * 60 * 1000);
    try {
      const late = await put(t, upload.parts[0]?.signedUrl ?? '', file.subarray(0, upload.partSize));
      expect(late.statusCode).toBe(403);
      expect(expectErrorBody(late.json(), 403).class_name).toBe('SignatureExpired');
      const renewed = await renewParts(t, token, order, upload.uploadId, [1]);
      expect(renewed.status).toBe(200);
      expect(renewed.json()).toMatchObject({ uploadId: upload.uploadId, key: upload.key, partSize: upload.partSize, parts: [{ partNumber: 1 }] });
      const again = await putPart(t, upload, file, 1, multipartUpload(renewed.json()).parts[0]?.signedUrl);
      expect(again).toBe(first);
      expect((await complete(t, token, order, upload.uploadId, [{ partNumber: 1, etag: again }])).statusCode).toBe(200);
      // A finished upload has no parts to renew; an unknown one neither.
      const finished = await renewParts(t, token, order, upload.uploadId, [1]);
      expect(finished.status).toBe(404);
      const unknown = await renewParts(t, token, order, 'f'.repeat(32), [1]);
      expect(expectErrorBody(unknown.json(), 404).class_name).toBe('NotFound');
    } finally {
      t.clock.now = new Date();
    }
  });

  it('a resumed upload (parts 1 and 2 already stored) asks only for part 3 and completes with every ETag', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await bigJpeg(17 * MiB + 1234);
    const upload = await startMultipart(t, token, order, file);
    const e1 = await putPart(t, upload, file, 1);
    const e2 = await putPart(t, upload, file, 2);
    // The page reloads: the client keeps uploadId, key and the two ETags, and asks for part 3.
    const fresh = multipartUpload((await renewParts(t, token, order, upload.uploadId, [3])).json());
    expect(fresh.parts.map((p) => p.partNumber)).toEqual([3]);
    const e3 = await putPart(t, upload, file, 3, fresh.parts[0]?.signedUrl);
    // A part past the end does not exist.
    const beyond = await renewParts(t, token, order, upload.uploadId, [4]);
    expect(beyond.status).toBe(422);
    const parts = [
      { partNumber: 1, etag: e1 },
      { partNumber: 2, etag: e2 },
      { partNumber: 3, etag: e3 },
    ];
    expect((await complete(t, token, order, upload.uploadId, parts)).statusCode).toBe(200);
    const confirmed = await confirm(t, token, order, { key: upload.key, photo_file_name: 'resumed.jpg' });
    expect(confirmed.statusCode).toBe(201);
    expect(confirmed.json().data.size).toBe(file.length);
  });

  it('complete refuses a wrong ETag and a missing part, and the upload can still be finished', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await bigJpeg(9 * MiB);
    const upload = await startMultipart(t, token, order, file);
    const e1 = await putPart(t, upload, file, 1);
    const missing = await complete(t, token, order, upload.uploadId, [{ partNumber: 1, etag: e1 }]);
    expect(expectErrorBody(missing.json(), 422).message).toBe('Part 2 of this photo has not been sent yet.');
    const e2 = await putPart(t, upload, file, 2);
    const wrong = await complete(t, token, order, upload.uploadId, [
      { partNumber: 1, etag: e1 },
      { partNumber: 2, etag: '"0123456789abcdef0123456789abcdef"' },
    ]);
    expect(expectErrorBody(wrong.json(), 422).message).toBe('Part 2 did not arrive as it was sent. Please send it again.');
    const right = await complete(t, token, order, upload.uploadId, [
      { partNumber: 1, etag: e1 },
      { partNumber: 2, etag: e2 },
    ]);
    expect(right.statusCode).toBe(200);
  });

  it('housekeeping removes the parts of an abandoned upload, after a night of grace', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await bigJpeg(9 * MiB);
    const upload = await startMultipart(t, token, order, file);
    await putPart(t, upload, file, 1);
    const staged = () => readdirSync(dirname(t.storage.path(upload.key))).filter((f) => f.includes('.part-'));
    expect(staged().length).toBeGreaterThan(0);
    const housekeeping = (hours: number) => purgeExpiredUploads({ db: t.db, storage: t.storage, now: () => new Date(Date.now() + hours * 3600_000) });
    await housekeeping(3);
    expect(staged().length).toBeGreaterThan(0);
    await housekeeping(26);
    expect(staged()).toEqual([]);
    expect(await t.db.select().from(storageUploads).where(eq(storageUploads.key, upload.key))).toEqual([]);
    const late = await put(t, upload.parts[1]?.signedUrl ?? '', file.subarray(upload.partSize));
    expect(late.statusCode).toBe(403);
  });
});

describe('the same photo twice', () => {
  it('is answered as a duplicate at create_presigned_url, and when two uploads race, stored and listed once', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await noisyJpeg(300, 200);
    // Two uploads of the same file under way at once.
    const a = (await presign(t, token, order, file)).json();
    const b = (await presign(t, token, order, file)).json();
    await put(t, a.signedUrl, file, a.headers);
    await put(t, b.signedUrl, file, b.headers);
    const first = await confirm(t, token, order, { key: a.key, photo_file_name: 'a.jpg' });
    const second = await confirm(t, token, order, { key: b.key, photo_file_name: 'b.jpg' });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect(second.json().data.guid).toBe(first.json().data.guid);
    expect(existsSync(t.storage.path(b.key.replace(/^incoming\//, '')))).toBe(false);
    // Afterwards the client is told before sending anything.
    const third = await presign(t, token, order, file);
    expect(third.json()).toMatchObject({ duplicate: true, photograph: { guid: first.json().data.guid } });
    const rows = await t.db.select().from(photographs).where(eq(photographs.checksum, sha256(file)));
    expect(rows).toHaveLength(1);
  });

  it('a copy sent without a checksum at create_presigned_url is kept once at confirmation, and its confirmation sent again answers the same photo', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await noisyJpeg(240, 160);
    const checksum = sha256(file);
    expect((await uploadSingle(t, token, order, file, 'a.jpg')).statusCode).toBe(201);
    // The client computes the checksum while it sends, so it asks without one.
    const answer = (await callAs(t.app, 'POST /lab_orders/:guid/create_presigned_url', { params: { guid: order }, body: { lab_order_guid: order, photo_file_name: 'b.jpg', content_type: 'image/jpeg' } }, { token })).json();
    expect(answer).not.toHaveProperty('duplicate');
    const copy = singleUpload(answer);
    await put(t, copy.signedUrl, file, copy.headers);
    const first = await confirm(t, token, order, { key: copy.key, photo_file_name: 'b.jpg', checksum, size: file.length });
    expect(first.statusCode).toBe(200);
    // Its answer was lost: the client confirms again under a new key.
    const again = await confirm(t, token, order, { key: copy.key, photo_file_name: 'b.jpg', checksum, size: file.length });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.guid).toBe(first.json().data.guid);
    expect(await t.db.select().from(photographs).where(eq(photographs.checksum, checksum))).toHaveLength(1);
  });

  it('the same bytes in another order are a photo of that order', async () => {
    const { token } = await photographer(t);
    const file = await noisyJpeg(120, 80);
    expect((await uploadSingle(t, token, await newOrder(t, token), file)).statusCode).toBe(201);
    expect((await uploadSingle(t, token, await newOrder(t, token), file)).statusCode).toBe(201);
  });
});

describe('Idempotency-Key', () => {
  it('a replayed create_presigned_url or photograph_uploaded answers the first answer and makes nothing twice', async () => {
    const { token, user } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await noisyJpeg(200, 100);
    const key = newKey();
    const body = { lab_order_guid: order, photo_file_name: 'p.jpg', content_type: 'image/jpeg' as const, size: file.length, checksum: sha256(file) };
    const ask = () => callApi(t.app, 'POST /lab_orders/:guid/create_presigned_url', { params: { guid: order }, body }, { token, headers: { 'idempotency-key': key } });
    const first = await ask();
    const second = await ask();
    expect(second.json()).toEqual(first.json());
    expect(await t.db.select().from(storageUploads).where(eq(storageUploads.ownerGuid, user.guid))).toHaveLength(1);

    const signed = singleUpload(first.json());
    await put(t, signed.signedUrl, file, signed.headers);
    const confirmKey = newKey();
    const done = () =>
      callApi(t.app, 'PATCH /lab_orders/:guid/photograph_uploaded', { params: { guid: order }, body: { key: signed.key, photo_file_name: 'p.jpg' } }, { token, headers: { 'idempotency-key': confirmKey } });
    const a = await done();
    const b = await done();
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.json()).toEqual(a.json());
    // Without the key, a repeated confirmation answers the photo it made.
    const c = await confirm(t, token, order, { key: signed.key, photo_file_name: 'p.jpg' });
    expect(c.statusCode).toBe(200);
    expect(c.json().data.guid).toBe(a.json().data.guid);
    expect(await t.db.select().from(photographs).where(eq(photographs.checksum, sha256(file)))).toHaveLength(1);
  });
});
