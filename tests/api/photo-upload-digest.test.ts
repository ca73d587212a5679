import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealedKeyOf } from '../../server/services/upload-service.ts';
import { createTestApp, expectErrorBody, type TestApp } from './helper.ts';
import { noisyJpeg } from './hostile-files.ts';
import { MiB, bigJpeg, complete, confirm, newOrder, photographer, putPart, sha256, startMultipart, type Multipart } from './photo-helpers.ts';

/**
 * complete_upload on the local store: the parts were written in place in one file, which becomes
 * the object by a rename, and were hashed and walked (JPEG) as they arrived; photograph_uploaded reuses that digest instead of reading the
 * photo again (docs/performance-notes.md §8, docs/performance-notes.md §7).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function sendAll(token: string, order: string, upload: Multipart, file: Buffer) {
  const parts = [];
  for (const { partNumber } of upload.parts) parts.push({ partNumber, etag: await putPart(t, upload, file, partNumber) });
  return parts;
}

describe('complete_upload on the local store', () => {
  it('writes every part in place in one file that becomes the object by a rename (no byte copied), and records the SHA-256 and the JPEG end check', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await bigJpeg(13 * MiB);
    const upload = await startMultipart(t, token, order, file);
    const parts = await sendAll(token, order, upload, file);
    // The parts' bytes are all in the upload's data file already, each at its place.
    const data = `${t.storage.path(upload.key)}.part-${upload.uploadId}.data`;
    const inode = statSync(data).ino;
    expect(readFileSync(data).equals(file)).toBe(true);
    expect((await complete(t, token, order, upload.uploadId, parts)).statusCode).toBe(200);
    expect(statSync(t.storage.path(upload.key)).ino).toBe(inode);
    expect(readFileSync(t.storage.path(upload.key)).equals(file)).toBe(true);
    expect(await t.storage.digest(upload.key)).toEqual({ size: file.length, sha256: sha256(file), whole: true });

    const confirmed = await confirm(t, token, order, { key: upload.key, photo_file_name: 'big.jpg', checksum: sha256(file), size: file.length });
    expect(confirmed.statusCode).toBe(201);
    // The digest moved with the object to its lasting key.
    expect(await t.storage.digest(sealedKeyOf(upload.key))).toEqual({ size: file.length, sha256: sha256(file), whole: true });
  });

  it('a part whose PUT breaks off half-way counts as not received (never half old, half new); sent again, the upload completes', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await bigJpeg(13 * MiB);
    const upload = await startMultipart(t, token, order, file);
    const parts = await sendAll(token, order, upload, file);
    // Part 1 again, with other bytes, and the connection drops after its first MiB.
    const broken = Readable.from(
      (async function* () {
        yield Buffer.alloc(MiB, 7);
        throw new Error('connection reset');
      })(),
    );
    await expect(t.storage.receivePart(upload.key, upload.uploadId, 1, broken, upload.partSize, async () => {})).rejects.toThrow('connection reset');
    const refused = await complete(t, token, order, upload.uploadId, parts);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.developer_message).toContain('Part 1 did not arrive as it was sent');
    parts[0] = { partNumber: 1, etag: await putPart(t, upload, file, 1) };
    expect((await complete(t, token, order, upload.uploadId, parts)).statusCode).toBe(200);
    expect(readFileSync(t.storage.path(upload.key)).equals(file)).toBe(true);
    expect(await t.storage.digest(upload.key)).toEqual({ size: file.length, sha256: sha256(file), whole: true });
  });

  it('a part but the last shorter than the part size leaves a gap, and is refused at completion', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await bigJpeg(21 * MiB);
    const upload = await startMultipart(t, token, order, file);
    const parts = await sendAll(token, order, upload, file);
    const short = file.subarray(0, upload.partSize - 1024);
    parts[0] = { partNumber: 1, etag: await t.storage.receivePart(upload.key, upload.uploadId, 1, Readable.from([short]), upload.partSize, async () => {}) };
    const refused = await complete(t, token, order, upload.uploadId, parts);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.developer_message).toContain('Part 1 did not arrive as it was sent');
  });

  it('two PUTs of one part at once are written one after the other, never into each other', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await bigJpeg(13 * MiB);
    const upload = await startMultipart(t, token, order, file);
    const first = file.subarray(0, upload.partSize);
    const slow = (bytes: Buffer) =>
      Readable.from(
        (async function* () {
          for (let at = 0; at < bytes.length; at += MiB) {
            yield bytes.subarray(at, at + MiB);
            // A turn of the event loop between chunks: the other PUT's writes get theirs.
            await new Promise((r) => setImmediate(r));
          }
        })(),
      );
    const [a, b] = await Promise.all([1, 1].map((n) => t.storage.receivePart(upload.key, upload.uploadId, n, slow(first), upload.partSize, async () => {})));
    expect(a).toBe(b);
    const parts = [{ partNumber: 1, etag: a ?? '' }, { partNumber: 2, etag: await putPart(t, upload, file, 2) }];
    expect((await complete(t, token, order, upload.uploadId, parts)).statusCode).toBe(200);
    expect(readFileSync(t.storage.path(upload.key)).equals(file)).toBe(true);
  });

  it('hashes the parts as they arrive, in part order whatever order they come in; a part sent again after it was hashed still gives the right digest', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await bigJpeg(21 * MiB);
    const upload = await startMultipart(t, token, order, file);
    const numbers = upload.parts.map((p) => p.partNumber).sort((a, b) => b - a);
    const etags = new Map<number, string>();
    for (const n of numbers) etags.set(n, await putPart(t, upload, file, n));
    // Part 1 again (a retry whose first answer was lost), after the others were hashed behind it.
    etags.set(1, await putPart(t, upload, file, 1));
    const parts = [...etags].sort(([a], [b]) => a - b).map(([partNumber, etag]) => ({ partNumber, etag }));
    expect((await complete(t, token, order, upload.uploadId, parts)).statusCode).toBe(200);
    expect(await t.storage.digest(upload.key)).toEqual({ size: file.length, sha256: sha256(file), whole: true });
    const confirmed = await confirm(t, token, order, { key: upload.key, photo_file_name: 'big.jpg', checksum: sha256(file), size: file.length });
    expect(confirmed.statusCode).toBe(201);
  });

  it('photograph_uploaded uses the digest recorded at completion instead of reading the photo again', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const file = await bigJpeg(7 * MiB);
    const upload = await startMultipart(t, token, order, file);
    expect((await complete(t, token, order, upload.uploadId, await sendAll(token, order, upload, file))).statusCode).toBe(200);
    // The record now says other bytes arrived: the confirmation compares the declared checksum with
    // it, proving it uses the recorded digest rather than reading the file again.
    const meta = `${t.storage.path(upload.key)}.meta.json`;
    const record = JSON.parse(readFileSync(meta, 'utf8')) as { digest: { sha256: string } };
    writeFileSync(meta, JSON.stringify({ ...record, digest: { ...record.digest, sha256: 'ab'.repeat(32) } }));
    const refused = await confirm(t, token, order, { key: upload.key, photo_file_name: 'big.jpg' });
    expect(refused.statusCode).toBe(422);
    expect(expectErrorBody(refused.json(), 422).message).toBe("big.jpg did not arrive intact (its checksum differs from the file's). Please upload it again.");
  });

  it('a multipart JPEG whose image data breaks off (yet ends in an end marker) is refused as damaged, from the walk made while joining', async () => {
    const { token } = await photographer(t);
    const order = await newOrder(t, token);
    const jpeg = await noisyJpeg(800, 600);
    // Half the image data, then a marker with an impossible length, padding, and an end marker:
    // the tail looks whole, the walk does not reach a real end.
    const broken = Buffer.concat([jpeg.subarray(0, Math.floor(jpeg.length / 2)), Buffer.from([0xff, 0x12, 0x00, 0x00]), Buffer.alloc(6 * MiB), Buffer.from([0xff, 0xd9])]);
    const upload = await startMultipart(t, token, order, broken);
    expect((await complete(t, token, order, upload.uploadId, await sendAll(token, order, upload, broken))).statusCode).toBe(200);
    expect(await t.storage.digest(upload.key)).toEqual({ size: broken.length, sha256: sha256(broken), whole: false });
    const refused = await confirm(t, token, order, { key: upload.key, photo_file_name: 'broken.jpg', checksum: sha256(broken) });
    expect(refused.statusCode).toBe(422);
    expect(expectErrorBody(refused.json(), 422).message).toBe('broken.jpg is incomplete or damaged: the upload may have been cut off. Please upload it again.');
  });
});
