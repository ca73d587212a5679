import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorBody, type TestApp } from './helper.ts';
import { noisyJpeg } from './hostile-files.ts';
import { MiB, bigJpeg, call, newOrder, photographer, put, putPart, sha256, startMultipart, uploadSingle } from './photo-helpers.ts';

/**
 * Who may call what (docs/upload-and-sync.md §1, docs/lab-rules.md §5): only the order's owner changes its
 * photos; another photographer gets 404 as if the order did not exist; without a session 401.
 * A lab admin sees every order's photos (as on the orders list) but uploads into none.
 */
let t: TestApp;
let owner: { token: string };
let other: { token: string };
let admin: { token: string };
let order: string;
let photoGuid: string;
let multipart: { uploadId: string; key: string };
let file: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  owner = await photographer(t);
  other = await photographer(t);
  admin = await photographer(t, { isAdmin: true });
  order = await newOrder(t, owner.token);
  const photo = await uploadSingle(t, owner.token, order, await noisyJpeg(64, 48));
  photoGuid = photo.json().data.guid;
  file = await bigJpeg(6 * MiB);
  const started = await startMultipart(t, owner.token, order, file);
  await putPart(t, started, file, 1);
  multipart = started;
});
afterAll(() => t.close());

type Call = { name: string; method: 'GET' | 'POST' | 'PATCH'; path: () => string; body?: () => object; write: boolean };
const calls: Call[] = [
  { name: 'GET /lab_orders/{guid}', method: 'GET', path: () => `/lab_orders/${order}`, write: false },
  { name: 'GET lab_order_photographs', method: 'GET', path: () => `/lab_orders/${order}/lab_order_photographs`, write: false },
  { name: 'GET photographs/{photoGuid}', method: 'GET', path: () => `/lab_orders/${order}/photographs/${photoGuid}`, write: false },
  {
    name: 'create_presigned_url (new photo)',
    method: 'POST',
    path: () => `/lab_orders/${order}/create_presigned_url`,
    body: () => ({ lab_order_guid: order, photo_file_name: 'x.jpg', content_type: 'image/jpeg', size: 1000, checksum: sha256(Buffer.from('x')) }),
    write: true,
  },
  {
    name: 'create_presigned_url (fresh part URLs)',
    method: 'POST',
    path: () => `/lab_orders/${order}/create_presigned_url`,
    body: () => ({ lab_order_guid: order, uploadId: multipart.uploadId, part_numbers: [1] }),
    write: true,
  },
  {
    name: 'complete_upload',
    method: 'POST',
    path: () => `/lab_orders/${order}/complete_upload`,
    body: () => ({ uploadId: multipart.uploadId, parts: [{ partNumber: 1, etag: '"x"' }] }),
    write: true,
  },
  {
    name: 'photograph_uploaded',
    method: 'PATCH',
    path: () => `/lab_orders/${order}/photograph_uploaded`,
    body: () => ({ key: multipart.key, photo_file_name: 'x.jpg' }),
    write: true,
  },
];

describe.each(calls)('$name', (c) => {
  it('is 401 without a session', async () => {
    const res = await call(t, c.method, c.path(), null, c.body?.());
    expect(res.statusCode).toBe(401);
    expectErrorBody(res.json(), 401);
  });

  it("is 404 for another photographer, as if the order did not exist", async () => {
    const res = await call(t, c.method, c.path(), other.token, c.body?.());
    expect(res.statusCode).toBe(404);
    expect(expectErrorBody(res.json(), 404).message).toBe('This order does not exist.');
  });

  it('is 200 for an admin when it reads, 404 when it would upload (photos are uploaded by their photographer)', async () => {
    const res = await call(t, c.method, c.path(), admin.token, c.body?.());
    expect(res.statusCode).toBe(c.write ? 404 : 200);
  });

  it('answers the owner', async () => {
    const res = await call(t, c.method, c.path(), owner.token, c.body?.());
    // A made-up ETag (422) and a confirmation before the parts are joined (409) are the owner's
    // own mistakes, not refusals of access.
    expect(res.statusCode).toBe(c.name === 'complete_upload' ? 422 : c.name === 'photograph_uploaded' ? 409 : 200);
  });
});

describe("another photographer's upload", () => {
  it("cannot be completed, confirmed or renewed through one's own order", async () => {
    const mine = await newOrder(t, other.token);
    const renew = await call(t, 'POST', `/lab_orders/${mine}/create_presigned_url`, other.token, { lab_order_guid: mine, uploadId: multipart.uploadId, part_numbers: [1] });
    expect(renew.statusCode).toBe(404);
    const done = await call(t, 'POST', `/lab_orders/${mine}/complete_upload`, other.token, { uploadId: multipart.uploadId, parts: [{ partNumber: 1, etag: '"x"' }] });
    expect(done.statusCode).toBe(404);
    const confirmed = await call(t, 'PATCH', `/lab_orders/${mine}/photograph_uploaded`, other.token, { key: multipart.key, photo_file_name: 'x.jpg' });
    expect(confirmed.statusCode).toBe(404);
  });

  it("a photo of one order is not found through another order of the same photographer", async () => {
    const second = await newOrder(t, owner.token);
    expect((await call(t, 'GET', `/lab_orders/${second}/photographs/${photoGuid}`, owner.token)).statusCode).toBe(404);
    const signed = await put(t, '/storage/incoming/photos/x.jpg?expires=1&sig=x&ct=image/jpeg&max=1', Buffer.from('x'), { 'content-type': 'image/jpeg' });
    expect(signed.statusCode).toBe(403);
  });
});
