import { constants as zlib } from 'node:zlib';
import Fastify, { type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { API, API_PREFIX } from '../src/domain/paths.ts';
import { LocalStorage } from './adapters/storage/local-storage.ts';
import type { TrustProxy } from './config.ts';
import type { ServerDeps } from './deps.ts';
import { registerApiDocument } from './http/api-document.ts';
import { registerLocalStorageRoutes } from './http/local-storage-routes.ts';
import { registerAuth } from './http/auth.ts';
import { registerNoStore } from './http/cache-headers.ts';
import { registerClientFiles } from './http/client-files.ts';
import { MAX_PARAM_LENGTH, clientErrorHandler, frameworkErrors, registerErrorHandling } from './http/error-handler.ts';
import { tooManyRequests } from './http/errors.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { databaseRateLimitStore } from './http/rate-limit-store.ts';
import { contentSecurityPolicy, registerSecurityHeaders } from './http/security-headers.ts';
import { registerTextRules } from './http/text-rules.ts';
import { rememberedCompression } from './http/remembered-compression.ts';
import { RequestLog, requestChildLogger } from './http/logger.ts';
import { benchFloorRoutes } from './routes/bench-floor-routes.ts';
import { accountRoutes } from './routes/account-routes.ts';
import { cardRoutes } from './routes/card-routes.ts';
import { orderToolsRoutes } from './routes/order-tools-routes.ts';
import { photographersRoutes } from './routes/photographers-routes.ts';
import { discountCodeRoutes } from './routes/discount-code-routes.ts';
import { checkoutRoutes } from './routes/checkout-routes.ts';
import { catalogueRoutes } from './routes/catalogue-routes.ts';
import { labOrdersRoutes } from './routes/lab-orders-routes.ts';
import { lineItemRoutes } from './routes/line-item-routes.ts';
import { orderRoutes } from './routes/order-routes.ts';
import { passwordRoutes } from './routes/password-routes.ts';
import { photoRoutes } from './routes/photo-routes.ts';
import { sessionRoutes } from './routes/session-routes.ts';
import { signupRoutes } from './routes/signup-routes.ts';
import { statusRoutes } from './routes/status-routes.ts';
import { webhookRoutes } from './routes/webhook-routes.ts';
import { statusMailRoutes } from './routes/status-mail-routes.ts';
import { packingSlipRoutes } from './routes/packing-slip-routes.ts';
import { APP_VERSION } from './version.ts';

// JSON bodies are small (photos go straight to storage through signed URLs); 1 MiB leaves room
// for a 30-line-item batch with notes.
const BODY_LIMIT_BYTES = 1024 * 1024;
// API answers smaller than this go out as they are: they fit in the first packets either way,
// and compressing them would cost more time than it saves.
const COMPRESS_MIN_BYTES = 1024;
// Dynamic answers are compressed per request on the server's one thread, so the cheapest level
// that still shrinks JSON well: brotli 1 and gzip 1 take a small part of the CPU of the plugin's
// defaults (brotli 4, gzip 6) on the app's answers for a few more bytes (docs/performance-notes.md
// §2). A 256 KB window (brotli's default is 4 MB) holds the largest list page whole and keeps each
// encoder's memory small.
const BROTLI_QUALITY = 1;
const BROTLI_WINDOW_BITS = 18;
const GZIP_LEVEL = 1;
// Answers up to this size are compressed in one call, not through a zlib stream per response
// (a stream, its pipeline and its buffers cost more than compressing 256 KB at these levels);
// larger ones (an order of a thousand photos) still stream on the thread pool.
const COMPRESS_SYNC_MAX_BYTES = 256 * 1024;
// Compressed answers remembered by their text (http/remembered-compression.ts): room for the kept
// pages of a few dozen busy photographers (a 50-order page is tens of KB of text).
const REMEMBERED_COMPRESSION_BYTES = 8 * 1024 * 1024;

/**
 * Which X-Forwarded-For entries name the caller: a number of proxies is believed hop by hop from
 * ours (the entries they appended; the caller writes whatever comes before), as proxy-addr counts.
 */
function trustedHops(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/** Builds the whole lab API and client server without listening, so tests can `inject`. */
export async function buildApp(deps: ServerDeps, opts: { logger?: FastifyServerOptions['logger'] } = {}) {
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: trustedHops(deps.config.trustProxy),
    // The time-out of the client is 20 minutes (docs/accounts.md §7); never cut a request shorter here.
    requestTimeout: 0,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Every error of every layer has the error body of docs/api.md §2: the router's, the HTTP
    // parser's, and the one sent while the server closes (see registerErrorHandling).
    frameworkErrors,
    clientErrorHandler,
    return503OnClosing: false,
    // One line per request instead of Fastify's two.
    logController: new RequestLog(),
    // Without a logger Fastify skips the child altogether, which a factory of ours would undo.
    ...(opts.logger ? { childLoggerFactory: requestChildLogger } : {}),
  });
  // The API speaks JSON only: a text body is refused (415) rather than half-understood.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Before any plugin or route: a hook reaches only the plugins and routes registered after it.
  registerTextRules(app);

  const storeOrigin = deps.storage.browserOrigin ? await deps.storage.browserOrigin() : null;
  await registerSecurityHeaders(app, { contentSecurityPolicy: { directives: contentSecurityPolicy(deps.config, storeOrigin) } });
  await app.register(rateLimit, {
    global: false,
    // Counted in the database, not in this process's memory: several API processes behind a load
    // balancer share one limit (docs/lab-rules.md §1).
    store: databaseRateLimitStore(deps.db, deps.now),
    errorResponseBuilder: () => tooManyRequests('Too many attempts. Please wait a minute and try again.'),
  });
  await registerApiDocument(app, APP_VERSION);

  registerErrorHandling(app, deps.errors, await registerClientFiles(app, deps.config.clientDir));
  if (deps.storage instanceof LocalStorage) await registerLocalStorageRoutes(app, deps.storage, deps);
  registerAuth(app, deps);
  registerIdempotency(app, deps.db, deps.appSecret, deps.config.crashAt, deps.webhookSecrets);
  registerNoStore(app);

  await app.register(
    async (api) => {
      // API answers only: the client's files are precompressed at build time, and stored files
      // (photos, PDFs, zips) stream as they are.
      await api.register(compress, {
        threshold: COMPRESS_MIN_BYTES,
        encodings: ['br', 'gzip'],
        syncThreshold: COMPRESS_SYNC_MAX_BYTES,
        brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS } },
        zlibOptions: { level: GZIP_LEVEL },
        zlib: rememberedCompression(REMEMBERED_COMPRESSION_BYTES),
      });
      await api.register(statusRoutes(deps));
      await api.register(sessionRoutes(deps));
      await api.register(labOrdersRoutes(deps));
      await api.register(orderRoutes(deps));
      await api.register(photoRoutes(deps));
      await api.register(lineItemRoutes(deps));
      await api.register(catalogueRoutes(deps));
      await api.register(signupRoutes(deps));
      await api.register(passwordRoutes(deps));
      await api.register(accountRoutes(deps));
      await api.register(cardRoutes(deps));
      await api.register(checkoutRoutes(deps));
      await api.register(photographersRoutes(deps));
      await api.register(orderToolsRoutes(deps));
      await api.register(discountCodeRoutes(deps));
      await api.register(webhookRoutes(deps));
      await api.register(statusMailRoutes(deps));
      await api.register(packingSlipRoutes(deps));
      // Only for npm run bench: absent unless BENCH_FLOOR is set.
      if (deps.config.benchFloor) await api.register(benchFloorRoutes());
      api.get(API.openapi, { schema: { hide: true }, config: { public: true } }, () => app.swagger());
    },
    { prefix: API_PREFIX },
  );
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
