import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './contract-call.ts';
import { createTestApp, expectErrorBody, type TestApp } from './helper.ts';
import { noisyJpeg } from './hostile-files.ts';
import { MiB, bigJpeg, callAs, newOrder, photographer, put, putPart, sha256, startMultipart, uploadSingle } from './photo-helpers.ts';

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

/** One call of the table as a caller with that token (none: without a session) makes it. */
type Call = { name: string; send: (token?: string) => Promise<{ status: number; json(): unknown }>; write: boolean };
const calls: Call[] = [
  { name: 'GET /lab_orders/{guid}', send: (token) => callApi(t.app, 'GET /lab_orders/:guid', { params: { guid: order } }, { token }), write: false },
  {
    name: 'GET lab_order_photographs',
    send: (token) => callApi(t.app, 'GET /lab_orders/:guid/lab_order_photographs', { params: { guid: order }, query: {} }, { token }),
    write: false,
  },
  {
    name: 'GET photographs/{photoGuid}',
    send: (token) => callApi(t.app, 'GET /lab_orders/:guid/photographs/:photoGuid', { params: { guid: order, photoGuid } }, { token }),
    write: false,
  },
  {
    name: 'create_presigned_url (new photo)',
    send: (token) =>
      callAs(
        t.app,
        'POST /lab_orders/:guid/create_presigned_url',
        { params: { guid: order }, body: { lab_order_guid: order, photo_file_name: 'x.jpg', content_type: 'image/jpeg', size: 1000, checksum: sha256(Buffer.from('x')) } },
        { token },
      ),
    write: true,
  },
  {
    name: 'create_presigned_url (fresh part URLs)',
    send: (token) =>
      callAs(t.app, 'POST /lab_orders/:guid/create_presigned_url', { params: { guid: order }, body: { lab_order_guid: order, uploadId: multipart.uploadId, part_numbers: [1] } }, { token }),
    write: true,
  },
  {
    name: 'complete_upload',
    send: (token) =>
      callAs(t.app, 'POST /lab_orders/:guid/complete_upload', { params: { guid: order }, body: { uploadId: multipart.uploadId, parts: [{ partNumber: 1, etag: '"x"' }] } }, { token }),
    write: true,
  },
  {
    name: 'photograph_uploaded',
    send: (token) => callAs(t.app, 'PATCH /lab_orders/:guid/photograph_uploaded', { params: { guid: order }, body: { key: multipart.key, photo_file_name: 'x.jpg' } }, { token }),
    write: true,
  },
];

describe.each(calls)('$name', (c) => {
  it('is 401 without a session', async () => {
    const res = await c.send();
    expect(res.status).toBe(401);
    expectErrorBody(res.json(), 401);
  });

  it("is 404 for another photographer, as if the order did not exist", async () => {
    const res = await c.send(other.token);
    expect(res.status).toBe(404);
    expect(expectErrorBody(res.json(), 404).message).toBe('This order does not exist.');
  });

  it('is 200 for an admin when it reads, 404 when it would upload (photos are uploaded by their photographer)', async () => {
    const res = await c.send(admin.token);
    expect(res.status).toBe(c.write ? 404 : 200);
  });

  it('answers the owner', async () => {
    const res = await c.send(owner.token);
    // A made-up ETag (422) and a confirmation before the parts are joined (409) are the owner's
    // own mistakes, not refusals of access.
    expect(res.status).toBe(c.name === 'complete_upload' ? 422 : c.name === 'photograph_uploaded' ? 409 : 200);
  });
});

describe("another photographer's upload", () => {
  it("cannot be completed, confirmed or renewed through one's own order", async () => {
    const mine = await newOrder(t, other.token);
    const renew = await callAs(t.app, 'POST /lab_orders/:guid/create_presigned_url', { params: { guid: mine }, body: { lab_order_guid: mine, uploadId: multipart.uploadId, part_numbers: [1] } }, { token: other.token });
    expect(renew.status).toBe(404);
    const done = await callAs(t.app, 'POST /lab_orders/:guid/complete_upload', { params: { guid: mine }, body: { uploadId: multipart.uploadId, parts: [{ partNumber: 1, etag: '"x"' }] } }, { token: other.token });
    expect(done.status).toBe(404);
    const confirmed = await callAs(t.app, 'PATCH /lab_orders/:guid/photograph_uploaded', { params: { guid: mine }, body: { key: multipart.key, photo_file_name: 'x.jpg' } }, { token: other.token });
    expect(confirmed.status).toBe(404);
  });

  it("a photo of one order is not found through another order of the same photographer", async () => {
    const second = await newOrder(t, owner.token);
    expect((await callApi(t.app, 'GET /lab_orders/:guid/photographs/:photoGuid', { params: { guid: second, photoGuid } }, { token: owner.token })).status).toBe(404);
    const signed = await put(t, '/storage/incoming/photos/x.jpg?expires=1&sig=x&ct=image/jpeg&max=1', Buffer.from('x'), { 'content-type': 'image/jpeg' });
    expect(signed.statusCode).toBe(403);
  });
});
