import { createReadStream, createWriteStream } from 'node:fs';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { mkdir, open, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { PartWriters, abortParts, assembleParts, locatePart, receivePart, startParts, writeLimited, type JoinedDigest } from './local-multipart.ts';
import { removeWriteLeftovers } from './local-leftovers.ts';
import { PartDigests } from './local-part-digests.ts';
import type { ByteScan, LocalCopy, ObjectDigest, PresignedPut, Storage, StoredObject, UploadedPart } from './storage.ts';

export { TooLarge } from './local-multipart.ts';

export const LOCAL_STORAGE_PREFIX = '/storage/';
/** Parts of a multipart upload started without a part size: S3's 5 MiB minimum. */
const DEFAULT_PART_BYTES = 5 * 1024 * 1024;

/**
 * The embedded object store: files under DATA_DIR/objects, reached through HMAC-signed expiring
 * URLs served by the API itself, in the manner of S3 presigned PUT and GET. The signature binds
 * the method, key, expiry, content type and size limit, so a URL cannot be reused for anything
 * else.
 */
export class LocalStorage implements Storage {
  readonly root: string;
  readonly #secret: string;
  readonly #now: () => Date;
  /** SHA-256 of multipart uploads, hashed as their parts arrive. */
  readonly #digests = new PartDigests(locatePart);
  /** Parts being written now, per upload (a retry waits for its earlier PUT; a completion for all). */
  readonly #writers = new PartWriters();
  /** Temporary files of writes under way in this process: never leftovers (local-leftovers.ts). */
  readonly #writing = new Set<string>();

  constructor(opts: { root: string; secret: string; now?: () => Date }) {
    this.root = resolve(opts.root);
    this.#secret = opts.secret;
    this.#now = opts.now ?? (() => new Date());
  }

  #sign(parts: string[]): string {
    return createHmac('sha256', this.#secret).update(parts.join('\n')).digest('base64url');
  }

  #expiry(seconds: number, from = this.#now()): string {
    return String(Math.floor(from.getTime() / 1000) + seconds);
  }

  /** The file of a key; refuses keys that would leave the store. */
  path(key: string): string {
    if (!/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(key) || key.includes('..')) throw new Error(`bad storage key: ${key}`);
    const full = resolve(this.root, key);
    if (!full.startsWith(this.root + sep)) throw new Error(`bad storage key: ${key}`);
    return full;
  }

  async presignPut(key: string, opts: { contentType: string; maxBytes: number; expiresInSeconds: number }): Promise<PresignedPut> {
    const expires = this.#expiry(opts.expiresInSeconds);
    const max = String(opts.maxBytes);
    const sig = this.#sign(['PUT', key, expires, opts.contentType, max]);
    const query = new URLSearchParams({ expires, max, ct: opts.contentType, sig });
    return { url: `${LOCAL_STORAGE_PREFIX}${key}?${query}`, headers: { 'content-type': opts.contentType } };
  }

  async presignGet(key: string, opts: { expiresInSeconds: number; downloadName?: string; signedAt?: Date }): Promise<string> {
    const expires = this.#expiry(opts.expiresInSeconds, opts.signedAt);
    const name = opts.downloadName ?? '';
    const sig = this.#sign(['GET', key, expires, name]);
    const query = new URLSearchParams({ expires, sig, ...(name ? { name } : {}) });
    return `${LOCAL_STORAGE_PREFIX}${key}?${query}`;
  }

  /** Checks a signed URL's query for a method and key: null when valid, else why not. */
  verify(method: 'PUT' | 'PART' | 'GET', key: string, query: Record<string, string | undefined>): 'expired' | 'invalid' | null {
    const { expires = '', sig = '' } = query;
    const signed: Record<typeof method, string[]> = {
      PUT: ['PUT', key, expires, query.ct ?? '', query.max ?? ''],
      PART: ['PART', key, query.uploadId ?? '', query.partNumber ?? '', expires, query.max ?? ''],
      GET: ['GET', key, expires, query.name ?? ''],
    };
    const parts = signed[method];
    const want = Buffer.from(this.#sign(parts));
    const got = Buffer.from(sig);
    if (want.length !== got.length || !timingSafeEqual(want, got)) return 'invalid';
    if (Number(expires) * 1000 < this.#now().getTime()) return 'expired';
    return null;
  }

  /**
   * Writes an upload, refusing it past maxBytes; nothing is left behind on failure.
   * `beforeCommit` runs once the body is in, just before the file takes the key's place: it may
   * throw to refuse the write (the upload was sealed while the body was arriving).
   */
  async receive(key: string, body: Readable, contentType: string, maxBytes: number, beforeCommit: () => Promise<void> = async () => {}): Promise<StoredObject & { etag: string }> {
    const file = this.path(key);
    await mkdir(dirname(file), { recursive: true });
    const temp = `${file}.upload-${process.pid}-${Date.now()}`;
    this.#writing.add(temp);
    try {
      const { size, md5 } = await writeLimited(body, temp, maxBytes);
      await beforeCommit();
      await writeFile(`${file}.meta.json`, JSON.stringify({ contentType, size }));
      await rename(temp, file);
      return { size, contentType, etag: `"${md5}"` };
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    } finally {
      this.#writing.delete(temp);
    }
  }

  async head(key: string): Promise<StoredObject | null> {
    try {
      const info = await stat(this.path(key));
      const meta = JSON.parse(await readFile(`${this.path(key)}.meta.json`, 'utf8').catch(() => '{}')) as { contentType?: string };
      return { size: info.size, contentType: meta.contentType ?? null };
    } catch {
      return null;
    }
  }

  async readStart(key: string, bytes: number): Promise<Buffer> {
    const handle = await open(this.path(key), 'r');
    try {
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async readEnd(key: string, bytes: number): Promise<Buffer> {
    const handle = await open(this.path(key), 'r');
    try {
      const { size } = await handle.stat();
      const length = Math.min(bytes, size);
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, size - length);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const file = this.path(key);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(`${file}.meta.json`, JSON.stringify({ contentType, size: body.length }));
    await writeFile(file, body);
  }

  async putStream(key: string, body: Readable, contentType: string): Promise<number> {
    const file = this.path(key);
    await mkdir(dirname(file), { recursive: true });
    // Written beside the object and renamed into place: a reader never sees half a file.
    const partial = `${file}.writing-${randomBytes(6).toString('hex')}`;
    this.#writing.add(partial);
    try {
      await pipeline(body, createWriteStream(partial));
      const { size } = await stat(partial);
      await writeFile(`${file}.meta.json`, JSON.stringify({ contentType, size }));
      await rename(partial, file);
      return size;
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    } finally {
      this.#writing.delete(partial);
    }
  }

  /**
   * Removes the temporary files of writes a killed process left (run at start: one process per
   * store directory, so none but this one's own writes can be under way); answers how many.
   */
  removeWriteLeftovers(): Promise<number> {
    return removeWriteLeftovers(this.root, this.#writing);
  }

  async move(from: string, to: string): Promise<void> {
    const source = this.path(from);
    const target = this.path(to);
    await mkdir(dirname(target), { recursive: true });
    // The object first (the atomic step a late upload races against), then its metadata.
    await rename(source, target);
    await rename(`${source}.meta.json`, `${target}.meta.json`).catch(() => undefined);
  }

  async remove(key: string): Promise<void> {
    const file = this.path(key);
    // The object, its metadata, and any unfinished write or part staged next to it.
    const name = basename(file);
    const staged = [`${name}.meta.json`, `${name}.upload-`, `${name}.part-`];
    const siblings = await readdir(dirname(file)).catch(() => [] as string[]);
    await Promise.all(
      siblings.filter((f) => f === name || staged.some((s) => f.startsWith(s))).map((f) => rm(join(dirname(file), f), { force: true })),
    );
  }

  stream(key: string): Readable {
    return createReadStream(this.path(key));
  }

  /** The store's own file: nothing is copied, and release() leaves it alone. */
  async localCopy(key: string): Promise<LocalCopy> {
    const path = this.path(key);
    await stat(path);
    return { path, release: async () => {} };
  }

  async createMultipart(key: string, opts: { contentType: string; partSize?: number; scan?: ByteScan }): Promise<string> {
    const uploadId = await startParts(this.path(key), opts.contentType, opts.partSize ?? DEFAULT_PART_BYTES);
    this.#digests.start(this.path(key), uploadId, opts.scan);
    return uploadId;
  }

  async presignPart(key: string, uploadId: string, partNumber: number, opts: { maxBytes: number; expiresInSeconds: number }): Promise<string> {
    const expires = this.#expiry(opts.expiresInSeconds);
    const max = String(opts.maxBytes);
    const sig = this.#sign(['PART', key, uploadId, String(partNumber), expires, max]);
    const query = new URLSearchParams({ uploadId, partNumber: String(partNumber), expires, max, sig });
    return `${LOCAL_STORAGE_PREFIX}${key}?${query}`;
  }

  /** Receives one part of a multipart upload; answers its ETag (see local-multipart.ts). */
  receivePart(key: string, uploadId: string, partNumber: number, body: Readable, maxBytes: number, beforeCommit: () => Promise<void>): Promise<string> {
    return receivePart(this.path(key), uploadId, partNumber, body, maxBytes, beforeCommit, this.#writers, this.#digests);
  }

  async completeMultipart(key: string, uploadId: string, parts: UploadedPart[], scan?: ByteScan): Promise<void> {
    await assembleParts(this.path(key), uploadId, parts, this.#writers, scan, this.#digests);
  }

  /**
   * The SHA-256 (and the scan's verdict) computed while the parts were joined, recorded next to
   * the object by the server itself; null for an object written otherwise (a single PUT), or
   * when the record does not match the file as it is now.
   */
  async digest(key: string): Promise<ObjectDigest | null> {
    try {
      const file = this.path(key);
      const meta = JSON.parse(await readFile(`${file}.meta.json`, 'utf8')) as { size?: number; digest?: JoinedDigest };
      const { size } = await stat(file);
      if (!meta.digest || meta.size !== size) return null;
      return { size, sha256: meta.digest.sha256, ...(meta.digest.whole === undefined ? {} : { whole: meta.digest.whole }) };
    } catch {
      return null;
    }
  }

  abortMultipart(key: string, uploadId: string): Promise<void> {
    this.#digests.forget(this.path(key), uploadId);
    return abortParts(this.path(key), uploadId);
  }
}

export const storageRoot = (dataDir: string) => join(dataDir, 'objects');
