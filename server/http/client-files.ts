import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ROUTE_PRELOADS_FILE } from './route-preloads-file.ts';

// Hashed build assets never change under their name: cache them for a year.
const IMMUTABLE = 'public, max-age=31536000, immutable';
// The shell and the service worker are never kept by an HTTP cache (docs/performance-notes.md §8): a new
// version must reach an open app, and the service worker keeps the shell for offline use itself.
const NEVER_STORE = 'no-store';
// Other files without a hash in their name (manifest, icons) are revalidated on every load.
const REVALIDATE = 'no-cache';
// The file sent may be a precompressed copy (index.html.br).
const isShell = (path: string) => /(\.html|[\\/]sw\.js)(\.br|\.gz)?$/.test(path);

// Source maps stay on the server (for error reports): they would hand anyone the app's sources.
// The precompressed copies are sent for their file's URL, never under their own.
const isBuildByProduct = (path: string) => /\.(map|br|gz)$/.test(path);

// Only the build's own hashed files are ever named in the page (the list is read from disk).
const PRELOADABLE = /^\/assets\/[\w.-]+\.(js|css)$/;

const preloadLink = (file: string) =>
  file.endsWith('.css') ? `<link rel="preload" as="style" crossorigin href="${file}">` : `<link rel="modulepreload" crossorigin href="${file}">`;

/**
 * index.html naming the files of the screen at `path` (scripts/route-preloads.ts), so the browser
 * fetches them alongside the app's own scripts; null when the build lists none for it. Both files
 * are read on each request: a new build installed under a running server is served at once, and
 * the page and its list always come from the same build.
 */
async function shellWithPreloads(clientDir: string, path: string): Promise<string | null> {
  let files: unknown;
  let html: string;
  try {
    files = (JSON.parse(await readFile(join(clientDir, ROUTE_PRELOADS_FILE), 'utf8')) as Record<string, unknown>)[path];
    html = await readFile(join(clientDir, 'index.html'), 'utf8');
  } catch {
    return null;
  }
  if (!Array.isArray(files) || !html.includes('</head>')) return null;
  const links = files.filter((f): f is string => typeof f === 'string' && PRELOADABLE.test(f)).map(preloadLink);
  return links.length ? html.replace('</head>', `${links.join('')}</head>`) : null;
}

// A page of this size compresses in well under a millisecond at this brotli quality; the last
// result per page and encoding is kept, so a build's page is compressed once.
const SHELL_BROTLI_QUALITY = 9;
const compressedPages = new Map<string, Buffer>();

/** The page as the browser's Accept-Encoding allows: brotli, gzip, or as it is. */
function compressedShell(html: string, acceptEncoding: string): { bytes: Buffer | string; encoding: 'br' | 'gzip' | null } {
  const encoding = /\bbr\b/.test(acceptEncoding) ? 'br' : /\bgzip\b/.test(acceptEncoding) ? 'gzip' : null;
  if (!encoding) return { bytes: html, encoding };
  const key = `${encoding}\n${html}`;
  let bytes = compressedPages.get(key);
  if (!bytes) {
    bytes = encoding === 'br' ? brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: SHELL_BROTLI_QUALITY } }) : gzipSync(html, { level: constants.Z_BEST_COMPRESSION });
    // One build's pages at a time: a new build's replace the old ones.
    if (compressedPages.size >= 16) compressedPages.clear();
    compressedPages.set(key, bytes);
  }
  return { bytes, encoding };
}

/** A path that names a file (an extension), never a screen. */
const looksLikeFile = (url: string) => /\.[a-z0-9]+$/i.test(url.split('?')[0] ?? '/');

/** The screens the build lists preloads for (read once at start: the paths are fixed in the build script). */
function preloadedScreens(clientDir: string): string[] {
  try {
    return Object.keys(JSON.parse(readFileSync(join(clientDir, ROUTE_PRELOADS_FILE), 'utf8')) as object);
  } catch {
    return [];
  }
}

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
  // The first screens' paths answer index.html with their screen's files named in it (a route
  // takes precedence over the static files' wildcard; '/' included). Patterns with parameters
  // ('/lab-orders/:id') are the client router's own; a static one ('/lab-orders/upload') wins
  // over a parameter there as in the client.
  for (const path of preloadedScreens(clientDir)) {
    app.get(path, async (request, reply) => {
      // A file's name in a parameter's place is no screen: the missing file's 404, as elsewhere.
      if (looksLikeFile(request.url)) return reply.callNotFound();
      // An empty parameter ('/lab-orders/' matches '/lab-orders/:id' here) is not the pattern's
      // screen in the client's router: the page as built.
      const empty = Object.values((request.params ?? {}) as Record<string, string>).some((v) => v === '');
      const html = empty ? null : await shellWithPreloads(clientDir, path);
      reply.code(200).header('cache-control', NEVER_STORE);
      if (html === null) return reply.sendFile('index.html');
      // Compressed as the precompressed copies of the static files are (the page carries the
      // inlined stylesheet, which compresses well).
      const body = compressedShell(html, String(request.headers['accept-encoding'] ?? ''));
      if (body.encoding) reply.header('content-encoding', body.encoding);
      return reply.type('text/html; charset=utf-8').header('vary', 'Accept-Encoding').send(body.bytes);
    });
  }
  return (request: FastifyRequest, reply: FastifyReply) => {
    const isScreen = (request.method === 'GET' || request.method === 'HEAD') && !looksLikeFile(request.url);
    if (!isScreen) return undefined;
    return reply.code(200).header('cache-control', NEVER_STORE).sendFile('index.html');
  };
}
