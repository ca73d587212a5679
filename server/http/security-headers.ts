import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/**
 * Content-Security-Policy for the app: our own origin, plus Stripe's card field when payments go
 * to Stripe, plus the error-reporting service's host only when SENTRY_DSN is set, plus the object
 * store's origin when photos live in S3 (`storeOrigin`, S3Storage.browserOrigin): the upload
 * worker PUTs photos straight to the bucket and the lab's thumbnails are presigned bucket URLs.
 * The local store is our own origin and adds nothing. No upgrade-insecure-requests: a lab may run
 * the embedded server over plain http on its LAN, where that directive would break every asset.
 */
export function contentSecurityPolicy(config: Pick<Config, 'sentry'>, storeOrigin: string | null) {
  const reporting = config.sentry ? [new URL(config.sentry.dsn).origin] : [];
  const store = storeOrigin ? [storeOrigin] : [];
  return {
    defaultSrc: ["'self'"],
    // 'wasm-unsafe-eval' lets the upload worker compile hash-wasm's SHA-256 (issue 10); it allows
    // WebAssembly only, not eval of JavaScript.
    scriptSrc: ["'self'", "'wasm-unsafe-eval'", 'https://js.stripe.com'],
    frameSrc: ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com'],
    connectSrc: ["'self'", 'https://api.stripe.com', ...reporting, ...store],
    imgSrc: ["'self'", 'data:', 'blob:', ...store],
    styleSrc: ["'self'", "'unsafe-inline'"],
    workerSrc: ["'self'", 'blob:'],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: null,
  };
}

/**
 * The headers @fastify/helmet sets with `options`, worked out once: the plugin builds helmet's
 * middleware again for every request (parsing the CSP directives each time), yet none of our
 * headers depends on the request. A throwaway instance with the plugin answers one call, and the
 * headers on the response when its handler runs are exactly what the plugin set.
 */
export async function helmetHeaders(options: FastifyHelmetOptions): Promise<[string, string][]> {
  const probe = Fastify();
  await probe.register(helmet, options);
  probe.get('/', (_request, reply) => reply.send(reply.raw.getHeaders()));
  try {
    const headers = (await probe.inject({ method: 'GET', url: '/' })).json<Record<string, string>>();
    return Object.entries(headers);
  } finally {
    await probe.close();
  }
}

/** Every answer (API, client files, stored files) carries the security headers, set when the request comes as helmet did. */
export async function registerSecurityHeaders(app: FastifyInstance, options: FastifyHelmetOptions): Promise<void> {
  const headers = await helmetHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
