import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../../server/adapters/storage/s3-storage.ts';
import { MIN_PART_BYTES } from '../../server/adapters/storage/storage.ts';
import type { ServerDeps } from '../../server/deps.ts';
import { housekeepingSteps } from '../../server/job-workers.ts';
import { ABANDONED_MULTIPART_AGE_MS, abortAbandonedMultipart, issueMultipartUpload } from '../../server/services/upload-service.ts';
import { callApi } from './contract-call.ts';
import { api, createTestApp, expectErrorBody, type TestApp } from './helper.ts';
import { noisyJpeg, textFile } from './hostile-files.ts';
import { addMultipartListing } from './s3rver-multipart.ts';
import { MiB, bigJpeg, complete, confirm, newOrder, photographer, presign, sha256, startMultipart, type Multipart } from './photo-helpers.ts';

/**
 * The S3 adapter against a real S3-protocol server on loopback (s3rver; it does not check
 * signatures, the local store's tests carry those), through the adapter and through the API.
 */
const BUCKET = 'photos';
// The bucket rule a lab must set on its own bucket: the browser PUTs and reads the parts' ETags.
const CORS = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader></CORSRule></CORSConfiguration>`;

let dir: string;
let server: S3rver;
let s3: S3Storage;
let endpoint: string;
const sent: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 's3rver-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, directory: dir, silent: true, configureBuckets: [{ name: BUCKET, configs: [CORS] }] });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  s3 = new S3Storage({
    bucket: BUCKET,
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  s3.client.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name: 'recordCommands' },
  );
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const fetchPut = (url: string, body: Buffer, headers: Record<string, string> = {}) => fetch(url, { method: 'PUT', body, headers });

describe('the S3 adapter', () => {
  it('puts, heads, reads ends and streams, copies to a file, moves and removes objects, and signs GETs', async () => {
    const body = Buffer.from('0123456789abcdef');
    await s3.put('a/b.txt', body, 'text/plain');
    expect(await s3.head('a/b.txt')).toEqual({ size: 16, contentType: 'text/plain' });
    expect(await s3.head('a/missing.txt')).toBeNull();
    expect((await s3.readStart('a/b.txt', 4)).toString()).toBe('0123');
    expect((await s3.readEnd('a/b.txt', 4)).toString()).toBe('cdef');
    const copy = await s3.localCopy('a/b.txt');
    expect(readFileSync(copy.path).equals(body)).toBe(true);
    await copy.release();
    await s3.move('a/b.txt', 'c/d e.txt');
    expect(await s3.head('a/b.txt')).toBeNull();
    const url = await s3.presignGet('c/d e.txt', { expiresInSeconds: 60, downloadName: 'notes.txt' });
    const got = await fetch(url);
    expect(Buffer.from(await got.arrayBuffer()).equals(body)).toBe(true);
    expect(got.headers.get('content-disposition')).toBe('attachment; filename="notes.txt"');
    // Signed as of a moment, the same address is handed out again.
    const at = new Date(Date.now() - 1000);
    expect(await s3.presignGet('c/d e.txt', { expiresInSeconds: 60, signedAt: at })).toBe(await s3.presignGet('c/d e.txt', { expiresInSeconds: 60, signedAt: at }));
    await s3.remove('c/d e.txt');
    expect(await s3.head('c/d e.txt')).toBeNull();
  });

  it('presigned PUTs carry no checksum of an empty body (real S3 would refuse the bytes)', async () => {
    const put = await s3.presignPut('x/photo.jpg', { contentType: 'image/jpeg', maxBytes: 10, expiresInSeconds: 60 });
    expect(put.url).not.toMatch(/x-amz-checksum|x-amz-sdk-checksum/i);
    expect(put.headers).toEqual({ 'content-type': 'image/jpeg' });
    const uploadId = await s3.createMultipart('x/big.jpg', { contentType: 'image/jpeg' });
    expect(await s3.presignPart('x/big.jpg', uploadId, 1, { maxBytes: 10, expiresInSeconds: 60 })).not.toMatch(/x-amz-checksum|x-amz-sdk-checksum/i);
  });

  it('multipart: part PUTs answer ETags, completing joins them in order', async () => {
    const file = Buffer.concat([Buffer.alloc(5 * MiB, 1), Buffer.alloc(1234, 2)]);
    const uploadId = await s3.createMultipart('m/photo.jpg', { contentType: 'image/jpeg' });
    const parts = [];
    for (const [n, bytes] of [file.subarray(0, 5 * MiB), file.subarray(5 * MiB)].entries()) {
      const res = await fetchPut(await s3.presignPart('m/photo.jpg', uploadId, n + 1, { maxBytes: bytes.length, expiresInSeconds: 60 }), bytes);
      expect(res.status).toBe(200);
      parts.push({ partNumber: n + 1, etag: res.headers.get('etag') ?? '' });
    }
    expect(parts.every((p) => /^"?[0-9a-f]{32}"?$/.test(p.etag))).toBe(true);
    await s3.completeMultipart('m/photo.jpg', uploadId, parts);
    expect(await s3.head('m/photo.jpg')).toEqual({ size: file.length, contentType: 'image/jpeg' });
    const copy = await s3.localCopy('m/photo.jpg');
    expect(sha256(readFileSync(copy.path))).toBe(sha256(file));
    await copy.release();
  });

  it('putStream writes a stream a part at a time (multipart above 8 MiB, one PUT below), byte for byte', async () => {
    const { Readable } = await import('node:stream');
    const { randomBytes } = await import('node:crypto');
    const big = randomBytes(17 * MiB + 123);
    const chunks = Array.from({ length: Math.ceil(big.length / (64 * 1024)) }, (_, i) => big.subarray(i * 64 * 1024, (i + 1) * 64 * 1024));
    sent.length = 0;
    expect(await s3.putStream('zips/big.zip', Readable.from(chunks), 'application/zip')).toBe(big.length);
    expect(sent.filter((c) => c === 'UploadPartCommand')).toHaveLength(3);
    const back: Buffer[] = [];
    for await (const c of await s3.stream('zips/big.zip')) back.push(c as Buffer);
    expect(sha256(Buffer.concat(back))).toBe(sha256(big));
    const small = randomBytes(1000);
    sent.length = 0;
    expect(await s3.putStream('zips/small.zip', Readable.from([small]), 'application/zip')).toBe(1000);
    expect(sent).toContain('PutObjectCommand');
    expect(await s3.head('zips/small.zip')).toMatchObject({ size: 1000 });
  });

  it('removing an upload aborts its unfinished multipart upload (a store that cannot is left to its lifecycle rule)', async () => {
    const uploadId = await s3.createMultipart('n/abandoned.jpg', { contentType: 'image/jpeg' });
    sent.length = 0;
    await s3.abortMultipart('n/abandoned.jpg', uploadId);
    await s3.remove('n/abandoned.jpg');
    expect(sent).toEqual(['AbortMultipartUploadCommand', 'DeleteObjectCommand', 'ListMultipartUploadsCommand']);
  });
});

describe('the upload contract on S3', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Configured as a lab would: S3_ENDPOINT implies path-style addresses.
    t = await createTestApp({ S3_BUCKET: BUCKET, S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' }, { jobs: true });
  });
  afterAll(() => t.close());

  it('the page may PUT to the bucket and show its images (the store in connect-src and img-src)', async () => {
    const csp = String((await t.app.inject({ method: 'GET', url: api('/status') })).headers['content-security-policy']);
    expect(csp).toContain(`connect-src 'self' https://api.stripe.com ${endpoint};`);
    expect(csp).toContain(`img-src 'self' data: blob: ${endpoint};`);
  });

  it('a single PUT straight to the bucket joins the order, and the derivatives are made from the bucket', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await noisyJpeg(900, 600);
    const { signedUrl, key, headers } = (await presign(t, token, order, file)).json();
    // Path-style, straight to the bucket (S3_ENDPOINT implies it).
    expect(signedUrl.startsWith(`${endpoint}/${BUCKET}/incoming/photos/`)).toBe(true);
    expect((await fetchPut(signedUrl, file, headers)).status).toBe(200);
    const done = await confirm(t, token, order, { key, photo_file_name: 'harbour.jpg', checksum: sha256(file) });
    expect(done.statusCode).toBe(201);
    expect(await s3.head(key)).toBeNull();
    const photoGuid = done.json().data.guid;
    await expect
      .poll(async () => (await callApi(t.app, 'GET /lab_orders/:guid/photographs/:photoGuid', { params: { guid: order, photoGuid } }, { token })).json().data.derivatives_ready, { timeout: 25_000, interval: 250 })
      .toBe(true);
    const photo = (await callApi(t.app, 'GET /lab_orders/:guid/photographs/:photoGuid', { params: { guid: order, photoGuid } }, { token })).json().data;
    const thumbnail = await sharp(Buffer.from(await (await fetch(photo.smallest_photo)).arrayBuffer())).metadata();
    expect({ width: thumbnail.width, height: thumbnail.height }).toEqual({ width: 400, height: 267 });
  });

  it('multipart straight to the bucket, completed through the API', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await bigJpeg(17 * MiB);
    const upload: Multipart = await startMultipart(t, token, order, file);
    const parts = [];
    for (const p of upload.parts) {
      const res = await fetchPut(p.signedUrl, file.subarray((p.partNumber - 1) * upload.partSize, p.partNumber * upload.partSize));
      expect(res.status).toBe(200);
      parts.push({ partNumber: p.partNumber, etag: res.headers.get('etag') ?? '' });
    }
    expect((await complete(t, token, order, upload.uploadId, parts)).statusCode).toBe(200);
    // A lost answer: completing again answers the same key.
    expect((await complete(t, token, order, upload.uploadId, parts)).json()).toEqual({ key: upload.key });
    const done = await confirm(t, token, order, { key: upload.key, photo_file_name: 'big.jpg', size: file.length, checksum: sha256(file) });
    expect(done.statusCode).toBe(201);
    expect(done.json().data.size).toBe(file.length);
  });

  it('a refused photo is removed from the bucket', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const text = textFile();
    const { signedUrl, key, headers } = (await presign(t, token, order, text)).json();
    await fetchPut(signedUrl, text, headers);
    const refused = await confirm(t, token, order, { key, photo_file_name: 'notes.jpg' });
    expect(expectErrorBody(refused.json(), 422).message).toBe('notes.jpg must be a JPEG or PNG file. This file is a text file.');
    expect(await s3.head(key)).toBeNull();
    expect(await s3.head(key.replace(/^incoming\//, ''))).toBeNull();
  });
});

describe('housekeeping of abandoned multipart uploads', () => {
  let listedDir: string;
  let listedServer: S3rver;
  let listed: S3Storage;
  let t: TestApp;
  beforeAll(async () => {
    listedDir = mkdtempSync(join(tmpdir(), 's3rver-listed-'));
    listedServer = new S3rver({ address: '127.0.0.1', port: 0, directory: listedDir, silent: true, configureBuckets: [{ name: BUCKET, configs: [CORS] }] });
    // Two uploads a page: the listing must follow S3's continuation markers.
    addMultipartListing(listedServer, listedDir, { pageSize: 2 });
    const { port } = await listedServer.run();
    listed = new S3Storage({ bucket: BUCKET, region: 'us-east-1', endpoint: `http://127.0.0.1:${port}`, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
    await listedServer.close();
    rmSync(listedDir, { recursive: true, force: true });
  });

  const open = async () => (await listed.multipartStartedBefore(new Date(Date.now() + 60_000))).map((u) => u.key).sort();

  it('aborts the uploads a day old that no upload record owns; a younger one or a recorded one stays', async () => {
    const deps = { db: t.db, storage: listed, now: () => t.clock.now } as unknown as ServerDeps;
    // A photo's upload, recorded as the API records it: housekeeping's other step owns it.
    const recorded = await issueMultipartUpload(deps, { ownerGuid: randomUUID(), purpose: 'photo', key: 'photos/o1/kept.jpg', contentType: 'image/jpeg', maxBytes: 20 * MiB, partSize: MIN_PART_BYTES });
    // Left by crashes: started but never recorded, and a zip cut off mid-stream (with a part sent).
    await listed.createMultipart('incoming/photos/o1/unrecorded.jpg', { contentType: 'image/jpeg' });
    const zip = await listed.createMultipart('orders/o1/order.zip', { contentType: 'application/zip' });
    expect((await fetchPut(await listed.presignPart('orders/o1/order.zip', zip, 1, { maxBytes: MiB, expiresInSeconds: 60 }), Buffer.alloc(1000, 1))).status).toBe(200);
    await listed.createMultipart('reports/r1.csv', { contentType: 'text/csv' });
    const step = housekeepingSteps(deps)['abandoned multipart uploads'];
    if (!step) throw new Error('housekeeping has no step for abandoned multipart uploads');

    expect(await step()).toBe(0);
    expect(await open()).toEqual(['incoming/photos/o1/kept.jpg', 'incoming/photos/o1/unrecorded.jpg', 'orders/o1/order.zip', 'reports/r1.csv']);

    const zipFolder = join(listedDir, BUCKET, '._S3rver_uploads', zip);
    expect(existsSync(zipFolder)).toBe(true);

    t.clock.now = new Date(Date.now() + ABANDONED_MULTIPART_AGE_MS + 60_000);
    expect(await step()).toBe(3);
    expect(await open()).toEqual([recorded.key]);
    // Its part went with it: s3rver's folder of the upload is gone, not only its listing.
    expect(existsSync(zipFolder)).toBe(false);
    expect(await step()).toBe(0);
  });

  it('a store that cannot list its multipart uploads is left to its lifecycle rule, without an error', async () => {
    await s3.createMultipart('orders/o2/order.zip', { contentType: 'application/zip' });
    const deps = { db: t.db, storage: s3, now: () => new Date(Date.now() + 2 * ABANDONED_MULTIPART_AGE_MS) };
    sent.length = 0;
    expect(await abortAbandonedMultipart(deps)).toBe(0);
    expect(sent).toEqual(['ListMultipartUploadsCommand']);
  });
});
