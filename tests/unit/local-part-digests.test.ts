import { createHash, randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dataOf, locatePart, receiptOf } from '../../server/adapters/storage/local-multipart.ts';
import { PartDigests } from '../../server/adapters/storage/local-part-digests.ts';

/**
 * The embedded store hashes a multipart upload's parts as they are kept, in part order, so its
 * completion need not read them again (server/adapters/storage/local-part-digests.ts).
 */
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The parts' size in these uploads (every part but the last). */
const PART = 3000;

/**
 * An upload of three parts, and a way to keep part n as the store does: written at its place in
 * the upload's data file, then its receipt (ETag and size).
 */
function upload() {
  const dir = mkdtempSync(join(tmpdir(), 'part-digests-'));
  dirs.push(dir);
  const file = join(dir, 'photo.jpg');
  const id = 'a'.repeat(32);
  writeFileSync(`${file}.part-${id}`, JSON.stringify({ contentType: 'image/jpeg', partSize: PART }));
  writeFileSync(dataOf(file, id), '');
  const parts = [randomBytes(PART), randomBytes(PART), randomBytes(1000)];
  const digests = new PartDigests(locatePart);
  const keep = (n: number, bytes = parts[n - 1] ?? Buffer.alloc(0)) => {
    digests.willCommit(file, id, n);
    rmSync(receiptOf(file, id, n), { force: true });
    const fd = openSync(dataOf(file, id), 'r+');
    writeSync(fd, bytes, 0, bytes.length, (n - 1) * PART);
    closeSync(fd);
    writeFileSync(receiptOf(file, id, n), `${md5(bytes)} ${bytes.length}`);
    digests.committed(file, id, n);
    return { partNumber: n, etag: `"${md5(bytes)}"` };
  };
  return { file, id, parts, digests, keep };
}

describe('hashing a multipart upload as its parts arrive', () => {
  it('hashes the parts in part order whatever order they arrive in, and feeds the scan in that order', async () => {
    const { file, id, parts, digests, keep } = upload();
    const seen: Buffer[] = [];
    digests.start(file, id, { push: (c) => void seen.push(c), complete: true });
    const listed = [keep(3), keep(1), keep(2)].sort((a, b) => a.partNumber - b.partNumber);
    const whole = Buffer.concat(parts);
    expect(await digests.take(file, id, listed)).toEqual({ sha256: sha256(whole), size: whole.length, whole: true });
    expect(Buffer.concat(seen).equals(whole)).toBe(true);
  });

  it('never gives the digest of bytes no longer kept: a part replaced after it was hashed spoils it', async () => {
    const { file, id, digests, keep } = upload();
    // The scan sees the bytes as they are hashed: both parts are hashed once it has seen them all.
    let scanned = 0;
    digests.start(file, id, { push: (chunk) => void (scanned += chunk.length), complete: false });
    keep(1);
    keep(2);
    await vi.waitFor(() => expect(scanned).toBe(2 * PART));
    // Then part 1 arrives again with other bytes.
    const listed = [keep(1, randomBytes(PART)), keep(2), keep(3)];
    // Null: the completion then reads the parts.
    expect(await digests.take(file, id, listed)).toBeNull();
  });

  it('gives no digest for parts listed with other ETags than the ones it hashed', async () => {
    const { file, id, digests, keep } = upload();
    digests.start(file, id);
    const listed = [keep(1), keep(2), keep(3)];
    expect(await digests.take(file, id, [listed[0] ?? keep(1), { partNumber: 2, etag: '"0123"' }, listed[2] ?? keep(3)])).toBeNull();
  });

  it('gives no digest when not every part was listed, and none for an upload it never saw start (a restart)', async () => {
    const { file, id, digests, keep } = upload();
    digests.start(file, id);
    const listed = [keep(1), keep(2), keep(3)];
    expect(await digests.take(file, id, listed.slice(0, 2))).toBeNull();
    expect(await new PartDigests(locatePart).take(file, id, listed)).toBeNull();
  });
});
