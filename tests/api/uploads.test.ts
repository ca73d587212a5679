import { existsSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_URL_TTL_S } from '../../server/adapters/storage/storage.ts';
import { storageUploads, users } from '../../server/db/schema.ts';
import { assertUploadOpen, issueUpload, purgeExpiredUploads, sealUpload } from '../../server/services/upload-service.ts';
import { callApi } from './contract-call.ts';
import { createTestApp, createUser, expectErrorBody, signIn, type TestApp } from './helper.ts';

/** Signed upload addresses are good for one object that has not been confirmed yet (docs/lab-rules.md §5). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const pdf = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
const html = Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>');
const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

async function presigned() {
  const { user, password } = await createUser(t.db);
  const token = await signIn(t.app, user.email, password);
  const res = await callApi(t.app, 'POST /lab_orders/:guid/create_presigned_url', { params: { guid: user.guid }, body: { guid: user.guid, file_name: 'resale.pdf' } }, { token });
  expect(res.status).toBe(200);
  return { user, token, ...(res.json() as { signedUrl: string; key: string }) };
}
const put = (url: string, body: Buffer, contentType = 'application/pdf') => t.app.inject({ method: 'PUT', url, payload: body, headers: { 'content-type': contentType } });
const confirm = (key: string, token: string) => callApi(t.app, 'POST /accounts/blanket_certificate', { body: { key } }, { token });
const housekeeping = (now: Date) => purgeExpiredUploads({ db: t.db, storage: t.storage, now: () => now });

describe('a confirmed upload is sealed', () => {
  it('a second PUT with the same signed URL is refused and the checked PDF stays what the admin downloads', async () => {
    const { token, signedUrl, key } = await presigned();
    expect((await put(signedUrl, pdf)).statusCode).toBe(200);
    const done = await confirm(key, token);
    expect(done.status).toBe(200);
    const link = done.json().blanket_certificate_of_resale_link;

    const replaced = await put(signedUrl, html, 'application/pdf');
    expect(replaced.statusCode).toBe(409);
    expect(expectErrorBody(replaced.json(), 409).message).toMatch(/already received/);

    const download = await t.app.inject({ method: 'GET', url: link });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(pdf)).toBe(true);
    // Confirming again answers the same certificate; it does not reopen the upload.
    const again = await confirm(key, token);
    expect(again.status).toBe(200);
    expect(await (await t.app.inject({ method: 'GET', url: again.json().blanket_certificate_of_resale_link })).rawPayload.equals(pdf)).toBe(true);
  });

  it('records each issued upload with its owner and expiry', async () => {
    const { user, key } = await presigned();
    const [row] = await t.db.select().from(storageUploads).where(eq(storageUploads.key, key));
    expect(row?.ownerGuid).toBe(user.guid);
    expect(row?.purpose).toBe('certificate');
    expect(row?.confirmedAt).toBeNull();
    const ttl = (row?.expiresAt.getTime() ?? 0) - Date.now();
    expect(ttl).toBeGreaterThan((UPLOAD_URL_TTL_S - 60) * 1000);
    expect(ttl).toBeLessThanOrEqual(UPLOAD_URL_TTL_S * 1000);
  });

  it("another photographer cannot confirm someone's upload", async () => {
    const mine = await presigned();
    const theirs = await presigned();
    expect((await put(mine.signedUrl, pdf)).statusCode).toBe(200);
    expect((await confirm(mine.key, theirs.token)).status).toBe(404);
    expect((await confirm(mine.key, mine.token)).status).toBe(200);
  });
});

describe('refused and abandoned uploads are removed', () => {
  it('a file refused at confirmation is deleted at once and its URL stops working', async () => {
    const { token, signedUrl, key, user } = await presigned();
    expect((await put(signedUrl, png)).statusCode).toBe(200);
    expect(existsSync(t.storage.path(key))).toBe(true);
    const refused = await confirm(key, token);
    expect(refused.status).toBe(422);
    expect(existsSync(t.storage.path(key))).toBe(false);
    expect(await t.db.select().from(storageUploads).where(eq(storageUploads.key, key))).toEqual([]);
    expect((await t.db.select().from(users).where(eq(users.guid, user.guid)))[0]?.blanketCertificateKey).toBeNull();
    const retry = await put(signedUrl, pdf);
    expect(retry.statusCode).toBe(403);
    expectErrorBody(retry.json(), 403);
  });

  it('an upload never confirmed is removed by housekeeping once its URL has expired, not before', async () => {
    const { signedUrl, key } = await presigned();
    expect((await put(signedUrl, pdf)).statusCode).toBe(200);
    await housekeeping(new Date());
    expect(existsSync(t.storage.path(key))).toBe(true);
    await housekeeping(new Date(Date.now() + 3 * UPLOAD_URL_TTL_S * 1000));
    expect(existsSync(t.storage.path(key))).toBe(false);
    expect(await t.db.select().from(storageUploads).where(eq(storageUploads.key, key))).toEqual([]);
  });

  it('housekeeping keeps confirmed files', async () => {
    const { token, signedUrl, key, user } = await presigned();
    expect((await put(signedUrl, pdf)).statusCode).toBe(200);
    expect((await confirm(key, token)).status).toBe(200);
    await housekeeping(new Date(Date.now() + 3 * UPLOAD_URL_TTL_S * 1000));
    const [row] = await t.db.select().from(users).where(eq(users.guid, user.guid));
    expect(row?.blanketCertificateKey).toBeTruthy();
    expect(existsSync(t.storage.path(row?.blanketCertificateKey ?? ''))).toBe(true);
  });
});

describe('multipart uploads meet the same record', () => {
  it('a part PUT is open only for its upload id, and refused once the upload is confirmed', async () => {
    const { user } = await createUser(t.db);
    const deps = { db: t.db, storage: t.storage };
    const upload = await issueUpload(deps, { ownerGuid: user.guid, purpose: 'photo', key: `photos/${user.guid}/p.jpg`, contentType: 'image/jpeg', maxBytes: 1024, multipartUploadId: 'upload-1' });
    await expect(assertUploadOpen(deps, upload.key, 'upload-1')).resolves.toBeUndefined();
    await expect(assertUploadOpen(deps, upload.key, 'upload-2')).rejects.toMatchObject({ status: 403 });
    await t.storage.put(upload.key, Buffer.from([0xff, 0xd8, 0xff]), 'image/jpeg');
    await sealUpload(deps, { key: upload.key, ownerGuid: user.guid, purpose: 'photo' });
    await expect(assertUploadOpen(deps, upload.key, 'upload-1')).rejects.toMatchObject({ status: 409 });
  });
});
