import type { FastifyInstance } from 'fastify';
import { LOCAL_STORAGE_PREFIX, TooLarge, type LocalStorage } from '../adapters/storage/local-storage.ts';
import type { ServerDeps } from '../deps.ts';
import { assertUploadOpen } from '../services/upload-service.ts';
import { HttpError } from './errors.ts';

type Query = Record<string, string | undefined>;

const refused = (why: 'expired' | 'invalid') =>
  new HttpError(403, 'Forbidden', why === 'expired' ? 'This link has expired. Please try again.' : 'This link is not valid.');

/** The embedded store's signed PUT and GET, standing in for S3's presigned URLs. */
export async function registerLocalStorageRoutes(app: FastifyInstance, storage: LocalStorage, deps: Pick<ServerDeps, 'db'>): Promise<void> {
  await app.register(async (scope) => {
    // Uploads arrive as they are (a PDF, a photo): hand the raw stream to the store.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    scope.put(`${LOCAL_STORAGE_PREFIX}*`, { schema: { hide: true } }, async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      const query = request.query as Query;
      const why = storage.verify('PUT', key, query);
      if (why) throw refused(why);
      const contentType = String(request.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
      if (contentType !== query.ct) throw new HttpError(403, 'Forbidden', `This link takes ${query.ct} files only.`);
      // One object per address, until it is confirmed: checked before the body is read, and
      // again before the file takes its place (it may have been confirmed meanwhile).
      await assertUploadOpen(deps, key);
      try {
        await storage.receive(key, request.raw, contentType, Number(query.max), () => assertUploadOpen(deps, key));
      } catch (err) {
        if (err instanceof TooLarge) throw new HttpError(413, 'PayloadTooLarge', 'This file is too large.');
        throw err;
      }
      return reply.code(200).header('etag', `"${key}"`).send();
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
