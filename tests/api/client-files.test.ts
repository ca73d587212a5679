import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestApp, expectErrorBody, type TestApp } from './helper.ts';

let t: TestApp;
let dir: string;
const SCRIPT = `export const app = ${JSON.stringify('x'.repeat(5000))};\n`;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lab-client-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><head><title>Print Lab</title></head><div id="root"></div>');
  // What the build lists for the first screens (scripts/route-preloads.ts), one name not the build's.
  writeFileSync(
    join(dir, 'route-preloads.json'),
    JSON.stringify({
      '/': ['/assets/list-1a.js', '/assets/list-2b.css'],
      '/lab-orders': ['/assets/list-1a.js', '"><script>x</script>'],
      '/login': [],
      '/lab-orders/upload': ['/assets/new-order-3c.js'],
      '/lab-orders/:id': ['/assets/detail-4d.js'],
    }),
  );
  writeFileSync(join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
  // A built script with the copies and the map the build writes (vite.config.ts).
  writeFileSync(join(dir, 'assets', 'main-def456.js'), SCRIPT);
  writeFileSync(join(dir, 'assets', 'main-def456.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(dir, 'assets', 'main-def456.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(dir, 'assets', 'main-def456.js.map'), '{"version":3,"sources":["src/secret.ts"]}');
  writeFileSync(join(dir, 'version.json'), JSON.stringify({ version: 'build-1' }));
  writeFileSync(join(dir, 'manifest.webmanifest'), '{"name":"Print Lab Orders"}');
  writeFileSync(join(dir, 'sw.js'), SCRIPT);
  writeFileSync(join(dir, 'sw.js.br'), brotliCompressSync(SCRIPT));
  t = await createTestApp({ CLIENT_DIR: dir });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the built client', () => {
  it('reports the version of the build on disk, and sees a new build without a restart', async () => {
    const first = await t.app.inject({ method: 'GET', url: api('/client_version') });
    expect(first.json()).toEqual({ version: 'build-1' });
    expect(first.headers['cache-control']).toBe('no-store');
    writeFileSync(join(dir, 'version.json'), JSON.stringify({ version: 'build-2' }));
    expect((await t.app.inject({ method: 'GET', url: api('/client_version') })).json()).toEqual({ version: 'build-2' });
  });

  it('answers 404 with the error body when no build is installed', async () => {
    const bare = await createTestApp();
    try {
      const res = await bare.app.inject({ method: 'GET', url: api('/client_version') });
      expect(res.statusCode).toBe(404);
      expectErrorBody(res.json(), 404);
    } finally {
      await bare.close();
    }
  });

  it('answers every screen path with index.html, which no HTTP cache keeps', async () => {
    for (const path of ['/', '/login', '/lab-orders/abc/edit/order-builder', '/account?x=1']) {
      const res = await t.app.inject({ method: 'GET', url: path });
      expect([path, res.statusCode]).toEqual([path, 200]);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('names the first screens\' files in the page it answers for them, and only the build\'s files', async () => {
    const home = await t.app.inject({ method: 'GET', url: '/?from=mail' });
    expect(home.statusCode).toBe(200);
    expect(home.headers['content-type']).toContain('text/html');
    expect(home.headers['cache-control']).toBe('no-store');
    expect(home.body).toContain('<link rel="modulepreload" crossorigin href="/assets/list-1a.js"><link rel="preload" as="style" crossorigin href="/assets/list-2b.css"></head>');
    // Compressed as the browser allows, like the build's precompressed files.
    const br = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(home.body);
    const gz = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(gz.rawPayload).toString()).toBe(home.body);
    const list = await t.app.inject({ method: 'GET', url: '/lab-orders' });
    expect(list.body).toContain('<link rel="modulepreload" crossorigin href="/assets/list-1a.js"></head>');
    expect(list.body).not.toContain('<script>');
    // Nothing listed: the page as built.
    const login = await t.app.inject({ method: 'GET', url: '/login' });
    expect(login.body).toBe('<!doctype html><head><title>Print Lab</title></head><div id="root"></div>');
    // A new build installed under the running server: its page and list are served at once.
    writeFileSync(join(dir, 'route-preloads.json'), JSON.stringify({ '/lab-orders': ['/assets/list-9z.js'] }));
    const next = await t.app.inject({ method: 'HEAD', url: '/lab-orders' });
    expect(next.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/lab-orders' })).body).toContain('href="/assets/list-9z.js"></head>');
    expect((await t.app.inject({ method: 'GET', url: '/' })).body).not.toContain('modulepreload');
  });

  it("names a screen's files at an address with a parameter, as the client's router matches it", async () => {
    // The build's list again (the test above installed another).
    writeFileSync(join(dir, 'route-preloads.json'), JSON.stringify({ '/lab-orders/upload': ['/assets/new-order-3c.js'], '/lab-orders/:id': ['/assets/detail-4d.js'] }));
    const detail = await t.app.inject({ method: 'GET', url: '/lab-orders/0b9e6f0c-5f5c-4b43-9a53-0d6f4b7e8a11?tab=photos' });
    expect(detail.statusCode).toBe(200);
    expect(detail.headers['cache-control']).toBe('no-store');
    expect(detail.body).toContain('<link rel="modulepreload" crossorigin href="/assets/detail-4d.js"></head>');
    // A fixed segment wins over the parameter, as in the client's router.
    expect((await t.app.inject({ method: 'GET', url: '/lab-orders/upload' })).body).toContain('href="/assets/new-order-3c.js"></head>');
    // An empty parameter, or a deeper address, is not the pattern's: the page as built.
    const emptyId = await t.app.inject({ method: 'GET', url: '/lab-orders/' });
    expect(emptyId.statusCode).toBe(200);
    expect(emptyId.body).not.toContain('detail-4d.js');
    expect((await t.app.inject({ method: 'GET', url: '/lab-orders/abc/review' })).body).not.toContain('modulepreload');
    // A file's name in the parameter's place is a missing file, not a screen.
    const file = await t.app.inject({ method: 'GET', url: '/lab-orders/photo.jpg' });
    expect(file.statusCode).toBe(404);
    expectErrorBody(file.json(), 404);
  });

  it('keeps the service worker out of HTTP caches and revalidates the manifest', async () => {
    const sw = await t.app.inject({ method: 'GET', url: '/sw.js', headers: { 'accept-encoding': 'br' } });
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['content-encoding']).toBe('br');
    expect(sw.headers['cache-control']).toBe('no-store');
    expect((await t.app.inject({ method: 'GET', url: '/index.html' })).headers['cache-control']).toBe('no-store');
    expect((await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' })).headers['cache-control']).toBe('no-cache');
  });

  it('serves hashed assets with a long cache, and a missing file as a 404', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await t.app.inject({ method: 'GET', url: '/assets/gone-999.js' });
    expect(missing.statusCode).toBe(404);
    expectErrorBody(missing.json(), 404);
  });

  it('sends a script as the brotli or gzip copy the build wrote, as Accept-Encoding allows, with Vary', async () => {
    const get = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/assets/main-def456.js', headers });
    const br = await get({ 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    const gz = await get({ 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    const plain = await get({});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    const head = await t.app.inject({ method: 'HEAD', url: '/assets/main-def456.js', headers: { 'accept-encoding': 'br' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.body).toBe('');
  });

  it('never serves a source map, or a compressed copy under its own name', async () => {
    for (const path of ['/assets/main-def456.js.map', '/assets/main-def456.js.br', '/assets/main-def456.js.gz']) {
      const res = await t.app.inject({ method: 'GET', url: path, headers: { 'accept-encoding': 'br' } });
      expect([path, res.statusCode]).toEqual([path, 404]);
      expectErrorBody(res.json(), 404);
    }
  });

  it('keeps the pages of the app and the signed storage URLs out of the API document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: api('/openapi.json') })).json<{ paths: Record<string, unknown> }>();
    const paths = Object.keys(doc.paths);
    expect(paths.length).toBeGreaterThan(50);
    expect(paths.filter((path) => !path.startsWith('/api/v2/'))).toEqual([]);
    // The pages are really served by this app: they are left out, not absent.
    expect((await t.app.inject({ method: 'GET', url: '/login' })).statusCode).toBe(200);
  });

  it('never answers an unknown API path with the app', async () => {
    const res = await t.app.inject({ method: 'GET', url: api('/unknown') });
    expect(res.statusCode).toBe(404);
    expectErrorBody(res.json(), 404);
  });
});
