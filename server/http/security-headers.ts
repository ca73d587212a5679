import type { Config } from '../config.ts';

/**
 * Content-Security-Policy for the app: our own origin, plus Stripe's card field when payments go
 * to Stripe, plus the error-reporting service's host only when SENTRY_DSN is set. No
 * upgrade-insecure-requests: a lab may run the embedded server over plain http on its LAN, where
 * that directive would break every asset.
 */
export function contentSecurityPolicy(config: Pick<Config, 'publicUrl' | 'sentry'>) {
  const reporting = config.sentry ? [new URL(config.sentry.dsn).origin] : [];
  return {
    defaultSrc: ["'self'"],
    // 'wasm-unsafe-eval' lets the upload worker compile hash-wasm's SHA-256 (issue 10); it allows
    // WebAssembly only, not eval of JavaScript.
    scriptSrc: ["'self'", "'wasm-unsafe-eval'", 'https://js.stripe.com'],
    frameSrc: ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com'],
    connectSrc: ["'self'", 'https://api.stripe.com', ...reporting],
    imgSrc: ["'self'", 'data:', 'blob:'],
    styleSrc: ["'self'", "'unsafe-inline'"],
    workerSrc: ["'self'", 'blob:'],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: null,
  };
}
