import { readFile, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type S3rver from 's3rver';

/**
 * s3rver 3.7 answers NotImplemented to ListMultipartUploads and AbortMultipartUpload, which the
 * lab's housekeeping uses on S3. This adds both to a server, over s3rver's own record of its
 * unfinished uploads (a folder per upload holding its key, under the bucket's
 * `._S3rver_uploads`), so the answers follow what the SDK really started, sent parts to and
 * completed. A page holds at most `pageSize` uploads, so a test sees S3's continuation markers.
 */
/** The part of Koa's context (s3rver is a Koa app) these handlers use. */
export interface S3rverContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
}
type Middleware = (ctx: S3rverContext, next: () => Promise<void>) => Promise<void>;

/** Runs `middleware` ahead of s3rver's own handlers (Koa runs its middleware in order); call before run(). */
export function aheadOfS3rver(server: S3rver, middleware: Middleware): void {
  (server as unknown as { middleware: Middleware[] }).middleware.unshift(middleware);
}

interface Upload {
  key: string;
  uploadId: string;
  initiated: Date;
}

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';

async function openUploads(directory: string, bucket: string): Promise<Upload[]> {
  const root = join(directory, bucket, '._S3rver_uploads');
  const ids = await readdir(root).catch(() => []);
  const uploads = await Promise.all(
    ids.map(async (uploadId) => {
      const keyFile = join(root, uploadId, 'key');
      // s3rver writes the key file once, when the upload starts.
      const [key, info] = await Promise.all([readFile(keyFile, 'utf8'), stat(keyFile)]).catch(() => [null, null] as const);
      return key && info ? { key, uploadId, initiated: info.mtime } : null;
    }),
  );
  // S3's order: by key, then by upload id.
  return uploads.filter((u): u is Upload => u !== null).sort((a, b) => (a.key === b.key ? (a.uploadId < b.uploadId ? -1 : 1) : a.key < b.key ? -1 : 1));
}

function listAnswer(bucket: string, uploads: Upload[], query: S3rverContext['query'], pageSize: number): string {
  const prefix = one(query.prefix);
  const keyMarker = one(query['key-marker']);
  const idMarker = one(query['upload-id-marker']);
  const max = Math.min(Number(one(query['max-uploads']) || 1000), pageSize);
  const after = uploads.filter((u) => u.key.startsWith(prefix) && (!keyMarker || u.key > keyMarker || (u.key === keyMarker && idMarker !== '' && u.uploadId > idMarker)));
  const page = after.slice(0, max);
  const last = page.at(-1);
  const truncated = after.length > page.length && last !== undefined;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
    `<Bucket>${xml(bucket)}</Bucket><Prefix>${xml(prefix)}</Prefix><KeyMarker>${xml(keyMarker)}</KeyMarker><UploadIdMarker>${xml(idMarker)}</UploadIdMarker>`,
    truncated ? `<NextKeyMarker>${xml(last.key)}</NextKeyMarker><NextUploadIdMarker>${xml(last.uploadId)}</NextUploadIdMarker>` : '',
    `<MaxUploads>${max}</MaxUploads><IsTruncated>${truncated}</IsTruncated>`,
    ...page.map(
      (u) => `<Upload><Key>${xml(u.key)}</Key><UploadId>${xml(u.uploadId)}</UploadId><Initiated>${u.initiated.toISOString()}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`,
    ),
    '</ListMultipartUploadsResult>',
  ].join('');
}

/** Adds the two calls to `server` (before it runs); `directory` is the one s3rver was given. */
export function addMultipartListing(server: S3rver, directory: string, opts: { pageSize?: number } = {}): void {
  const pageSize = opts.pageSize ?? 1000;
  const listing: Middleware = async (ctx, next) => {
    const [bucket = '', ...rest] = ctx.path.slice(1).split('/');
    const key = rest.map(decodeURIComponent).join('/');
    if (ctx.method === 'GET' && !key && 'uploads' in ctx.query) {
      ctx.type = 'application/xml';
      ctx.body = listAnswer(bucket, await openUploads(directory, bucket), ctx.query, pageSize);
      return;
    }
    const uploadId = one(ctx.query.uploadId);
    if (ctx.method === 'DELETE' && key && uploadId) {
      const found = (await openUploads(directory, bucket)).find((u) => u.uploadId === uploadId && u.key === key);
      if (!found) {
        ctx.status = 404;
        ctx.type = 'application/xml';
        ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>';
        return;
      }
      await rm(join(directory, bucket, '._S3rver_uploads', uploadId), { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    await next();
  };
  // Ahead of s3rver's router, which refuses both calls.
  aheadOfS3rver(server, listing);
}
