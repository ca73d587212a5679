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
