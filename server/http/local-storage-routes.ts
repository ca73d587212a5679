import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { LOCAL_STORAGE_PREFIX, TooLarge, type LocalStorage } from '../adapters/storage/local-storage.ts';
import { MAX_PARTS } from '../../src/domain/multipart-limit.ts';
import { MultipartError } from '../adapters/storage/storage.ts';
import type { ServerDeps } from '../deps.ts';
import { assertUploadOpen } from '../services/upload-service.ts';
import { HttpError } from './errors.ts';

type Query = Record<string, string | undefined>;

// S3 answers an expired presigned URL with 403; the class name tells the client to ask for a
// fresh URL rather than give up (docs/upload-and-sync.md §1).
const refused = (why: 'expired' | 'invalid') =>
  why === 'expired'
    ? new HttpError(403, 'SignatureExpired', 'This link has expired. Please try again.')
    : new HttpError(403, 'Forbidden', 'This link is not valid.');

const tooLarge = () => new HttpError(413, 'PayloadTooLarge', 'This file is too large.');

/** The embedded store's signed PUT (whole objects and multipart parts) and GET, standing in for S3's presigned URLs. */
export async function registerLocalStorageRoutes(app: FastifyInstance, storage: LocalStorage, deps: Pick<ServerDeps, 'db'>): Promise<void> {
  await app.register(async (scope) => {
    // Uploads arrive as they are (a PDF, a photo, a part of one): hand the raw stream to the store.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    // The browser reads a part's ETag to complete the upload; S3 exposes it by its CORS rule.
    scope.addHook('onSend', async (_request, reply) => {
      reply.header('access-control-expose-headers', 'ETag');
    });

    scope.put(`${LOCAL_STORAGE_PREFIX}*`, { schema: { hide: true } }, async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      const query = request.query as Query;
      if (query.uploadId !== undefined || query.partNumber !== undefined) {
        const etag = await receivePart(storage, deps, key, query, request.raw);
        return reply.code(200).header('etag', etag).send();
      }
      const why = storage.verify('PUT', key, query);
      if (why) throw refused(why);
      const contentType = String(request.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
      if (contentType !== query.ct) throw new HttpError(403, 'Forbidden', `This link takes ${query.ct} files only.`);
      // One object per address, until it is confirmed: checked before the body is read, and
      // again before the file takes its place (it may have been confirmed meanwhile).
      await assertUploadOpen(deps, key);
      try {
        const stored = await storage.receive(key, request.raw, contentType, Number(query.max), () => assertUploadOpen(deps, key));
        return reply.code(200).header('etag', stored.etag).send();
      } catch (err) {
        if (err instanceof TooLarge) throw tooLarge();
        throw err;
      }
    });

    scope.get(`${LOCAL_STORAGE_PREFIX}*`, { schema: { hide: true } }, async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      const query = request.query as Query;
      const why = storage.verify('GET', key, query);
      if (why) throw refused(why);
      const head = await storage.head(key);
      if (!head) throw new HttpError(404, 'NotFound', 'This file does not exist.');
      reply.header('content-type', head.contentType ?? 'application/octet-stream').header('cache-control', 'private, max-age=300');
      if (query.name) reply.header('content-disposition', `attachment; filename="${query.name.replace(/[^\w.-]/g, '_')}"`);
      return reply.send(storage.stream(key));
    });
  });
}

/**
 * One part of a multipart upload (S3's UploadPart): any content type, at most the signed size,
 * only while the upload is open and not confirmed; answers the part's ETag.
 */
async function receivePart(storage: LocalStorage, deps: Pick<ServerDeps, 'db'>, key: string, query: Query, body: Readable): Promise<string> {
  const why = storage.verify('PART', key, query);
  if (why) throw refused(why);
  const uploadId = query.uploadId ?? '';
  const partNumber = Number(query.partNumber);
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PARTS) throw new HttpError(400, 'BadRequest', 'The part number is not valid.');
  await assertUploadOpen(deps, key, uploadId);
  try {
    return await storage.receivePart(key, uploadId, partNumber, body, Number(query.max), () => assertUploadOpen(deps, key, uploadId));
  } catch (err) {
    if (err instanceof TooLarge) throw tooLarge();
    if (err instanceof MultipartError) throw new HttpError(404, 'NoSuchUpload', 'This upload is already finished or no longer exists. Please upload the file again.');
    throw err;
  }
}
