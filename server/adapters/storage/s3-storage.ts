import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { MultipartError, STREAM_PART_BYTES, bareEtag, type LocalCopy, type OpenMultipart, type PresignedPut, type Storage, type StoredObject, type UploadedPart } from './storage.ts';

export interface S3Settings {
  bucket: string;
  region: string;
  /** Another S3-compatible store (MinIO, R2, a test server); AWS when absent. */
  endpoint: string | undefined;
  forcePathStyle: boolean;
  /** Without them the SDK's own chain is used (environment, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
}

/** The name S3 gives an error (the SDK puts it on `name`, and the HTTP status in $metadata). */
const s3Error = (err: unknown): { name: string; status: number | undefined } => {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return { name: e.Code ?? e.name ?? '', status: e.$metadata?.httpStatusCode };
};
const MULTIPART_CODES = new Set(['NoSuchUpload', 'InvalidPart', 'InvalidPartOrder', 'EntityTooSmall']);
// Stores that cannot list or abort multipart uploads answer these; a bucket lifecycle rule
// (AbortIncompleteMultipartUpload) then clears what is left.
const UNSUPPORTED = new Set(['NotImplemented', 'MethodNotAllowed']);

function s3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    // With the SDK's default, presigned PUT and UploadPart URLs carry the CRC32 of an empty
    // body, and S3 refuses the browser's real bytes.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/**
 * Any S3-compatible store through the AWS SDK v3 (docs/architecture.md §2). The browser PUTs to presigned
 * URLs; the bucket needs a CORS rule that allows PUT and GET from the app's origin and exposes
 * ETag (multipart completes with the parts' ETags).
 */
export class S3Storage implements Storage {
  readonly client: S3Client;
  readonly bucket: string;

  readonly #settings: S3Settings;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.#settings = settings;
    this.client = s3Client(settings);
  }

  /**
   * The origin of the addresses this store hands the browser (the page's CSP lets it reach that
   * origin and no other store). Read off a URL presigned by a client of the same settings, so it
   * is whatever the SDK really builds: the bucket's virtual-hosted host, the path-style host for
   * S3_FORCE_PATH_STYLE or a bucket name with dots, another partition's domain, or S3_ENDPOINT.
   * Presigning is local; stand-in credentials keep it from asking the instance role at start.
   */
  async browserOrigin(): Promise<string> {
    const client = s3Client({ ...this.#settings, credentials: { accessKeyId: 'origin', secretAccessKey: 'origin' } });
    try {
      return new URL(await getSignedUrl(client, new GetObjectCommand({ Bucket: this.bucket, Key: 'origin' }), { expiresIn: 60 })).origin;
    } finally {
      client.destroy();
    }
  }

  async presignPut(key: string, opts: { contentType: string; maxBytes: number; expiresInSeconds: number }): Promise<PresignedPut> {
    // A presigned PUT cannot bound the size (only a POST policy can); the size is checked when
    // the upload is confirmed, and a refused object is removed then.
    const command = new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: opts.contentType });
    const url = await getSignedUrl(this.client, command, { expiresIn: opts.expiresInSeconds });
    return { url, headers: { 'content-type': opts.contentType } };
  }

  presignGet(key: string, opts: { expiresInSeconds: number; downloadName?: string; signedAt?: Date }): Promise<string> {
    const name = opts.downloadName?.replace(/[^\w.-]/g, '_');
    const command = new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(name ? { ResponseContentDisposition: `attachment; filename="${name}"` } : {}) });
    return getSignedUrl(this.client, command, { expiresIn: opts.expiresInSeconds, ...(opts.signedAt ? { signingDate: opts.signedAt } : {}) });
  }

  async head(key: string): Promise<StoredObject | null> {
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: answer.ContentLength ?? 0, contentType: answer.ContentType ?? null };
    } catch (err) {
      const { name, status } = s3Error(err);
      if (status === 404 || name === 'NotFound' || name === 'NoSuchKey') return null;
      throw err;
    }
  }

  async #range(key: string, range: string): Promise<Buffer> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range }));
      return Buffer.from((await answer.Body?.transformToByteArray()) ?? []);
    } catch (err) {
      // An empty object has no byte to start from.
      if (s3Error(err).name === 'InvalidRange') return Buffer.alloc(0);
      throw err;
    }
  }

  readStart(key: string, bytes: number): Promise<Buffer> {
    return this.#range(key, `bytes=0-${bytes - 1}`);
  }

  async readEnd(key: string, bytes: number): Promise<Buffer> {
    // From the size rather than a suffix range (bytes=-n), which not every S3-compatible store reads.
    const size = (await this.head(key))?.size ?? 0;
    if (size === 0) return Buffer.alloc(0);
    return this.#range(key, `bytes=${Math.max(0, size - bytes)}-${size - 1}`);
  }

  async stream(key: string): Promise<Readable> {
    const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    // In Node the SDK's body is a Readable (an IncomingMessage with helpers mixed in).
    return answer.Body as Readable;
  }

  /** Streams the object into a temporary file (sharp then reads it without holding it in memory). */
  async localCopy(key: string): Promise<LocalCopy> {
    const dir = await mkdtemp(join(tmpdir(), 'lab-s3-'));
    const path = join(dir, 'object');
    const release = () => rm(dir, { recursive: true, force: true });
    try {
      await pipeline(await this.stream(key), createWriteStream(path));
    } catch (err) {
      await release();
      throw err;
    }
    return { path, release };
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  async putStream(key: string, body: Readable, contentType: string): Promise<number> {
    // One part's bytes at a time in memory; a stream shorter than a part is one PUT.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let total = 0;
    let uploadId: string | undefined;
    const parts: { PartNumber: number; ETag: string }[] = [];
    const sendPart = async () => {
      uploadId ??= (await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }))).UploadId;
      const PartNumber = parts.length + 1;
      const res = await this.client.send(new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber, Body: Buffer.concat(pending) }));
      parts.push({ PartNumber, ETag: res.ETag ?? '' });
      pending = [];
      pendingBytes = 0;
    };
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        total += chunk.length;
        if (pendingBytes >= STREAM_PART_BYTES) await sendPart();
      }
      if (!uploadId) {
        await this.put(key, Buffer.concat(pending), contentType);
        return total;
      }
      if (pendingBytes) await sendPart();
      await this.client.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
      return total;
    } catch (err) {
      if (uploadId) await this.abortMultipart(key, uploadId).catch(() => undefined);
      throw err;
    }
  }

  async move(from: string, to: string): Promise<void> {
    // CopySource is "bucket/key" URL-encoded, slashes kept.
    const source = `${this.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
    await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: source }));
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: from }));
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    for (const uploadId of await this.#openUploads(key)) await this.abortMultipart(key, uploadId);
  }

  /** The unfinished multipart uploads of exactly this key (none where the store cannot list them). */
  async #openUploads(key: string): Promise<string[]> {
    return (await this.#listUploads(key, (upload) => upload.key === key)).map((upload) => upload.uploadId);
  }

  multipartStartedBefore(before: Date): Promise<OpenMultipart[]> {
    return this.#listUploads(undefined, (upload) => upload.startedAt < before);
  }

  /** The bucket's unfinished multipart uploads under a prefix that `keep` accepts, every page of them. */
  async #listUploads(prefix: string | undefined, keep: (upload: OpenMultipart) => boolean): Promise<OpenMultipart[]> {
    const found: OpenMultipart[] = [];
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    try {
      for (;;) {
        const page = await this.client.send(
          new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: prefix, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
        );
        for (const { Key, UploadId, Initiated } of page.Uploads ?? []) {
          // Without its start an upload's age is unknown: it is kept as if it had just begun.
          const upload = Key && UploadId ? { key: Key, uploadId: UploadId, startedAt: Initiated ?? new Date() } : null;
          if (upload && keep(upload)) found.push(upload);
        }
        if (!page.IsTruncated || !page.NextKeyMarker) return found;
        keyMarker = page.NextKeyMarker;
        uploadIdMarker = page.NextUploadIdMarker;
      }
    } catch (err) {
      if (UNSUPPORTED.has(s3Error(err).name)) return found;
      throw err;
    }
  }

  async createMultipart(key: string, opts: { contentType: string }): Promise<string> {
    const answer = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: opts.contentType }));
    if (!answer.UploadId) throw new Error('S3 started a multipart upload without an upload id');
    return answer.UploadId;
  }

  presignPart(key: string, uploadId: string, partNumber: number, opts: { maxBytes: number; expiresInSeconds: number }): Promise<string> {
    // As with a PUT, S3 cannot bound a presigned part's size; the whole object is checked when confirmed.
    const command = new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber });
    return getSignedUrl(this.client, command, { expiresIn: opts.expiresInSeconds });
  }

  async completeMultipart(key: string, uploadId: string, parts: UploadedPart[]): Promise<void> {
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: `"${bareEtag(p.etag)}"` })) },
        }),
      );
    } catch (err) {
      const { name } = s3Error(err);
      if (MULTIPART_CODES.has(name)) throw new MultipartError(name as MultipartError['code'], (err as Error).message);
      throw err;
    }
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
    } catch (err) {
      const { name } = s3Error(err);
      if (name === 'NoSuchUpload' || UNSUPPORTED.has(name)) return;
      throw err;
    }
  }
}
