import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

// Hashed build assets never change under their name: cache them for a year.
const IMMUTABLE = 'public, max-age=31536000, immutable';
// The shell and the service worker are never kept by an HTTP cache (DESIGN.md §6a): a new
// version must reach an open app, and the service worker keeps the shell for offline use itself.
const NEVER_STORE = 'no-store';
// Other files without a hash in their name (manifest, icons) are revalidated on every load.
const REVALIDATE = 'no-cache';
// The file sent may be a precompressed copy (index.html.br).
const isShell = (path: string) => /(\.html|[\\/]sw\.js)(\.br|\.gz)?$/.test(path);

// Source maps stay on the server (for error reports): they would hand anyone the app's sources.
// The precompressed copies are sent for their file's URL, never under their own.
const isBuildByProduct = (path: string) => /\.(map|br|gz)$/.test(path);

/**
 * Serves the built client from `clientDir` and returns the SPA fallback: any screen path that is
 * not a file answers index.html, so deep links and reloads work. Text files go out as the brotli
 * or gzip copy the build wrote next to them (vite.config.ts), as the browser's Accept-Encoding
 * allows. Returns undefined when no client is built (API-only tests).
 */
export async function registerClientFiles(app: FastifyInstance, clientDir: string) {
  if (!existsSync(join(clientDir, 'index.html'))) return undefined;
  await app.register(fastifyStatic, {
    root: clientDir,
    index: 'index.html',
    // Our own cache headers below, not send's default max-age=0.
    cacheControl: false,
    preCompressed: true,
    allowedPath: (path) => !isBuildByProduct(path),
    setHeaders: (res, path) => {
      res.setHeader('cache-control', path.includes('/assets/') ? IMMUTABLE : isShell(path) ? NEVER_STORE : REVALIDATE);
      // The same URL answers differently by Accept-Encoding (precompressed copies).
      res.setHeader('vary', 'Accept-Encoding');
    },
  });
  return (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isScreen = (request.method === 'GET' || request.method === 'HEAD') && !/\.[a-z0-9]+$/i.test(path);
    if (!isScreen) return undefined;
    return reply.code(200).header('cache-control', NEVER_STORE).sendFile('index.html');
  };
}
