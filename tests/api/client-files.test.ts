import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestApp, expectErrorBody, type TestApp } from './helper.ts';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lab-client-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Print Lab</title><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
  writeFileSync(join(dir, 'version.json'), JSON.stringify({ version: 'build-1' }));
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

  it('answers every screen path with index.html, revalidated on each load', async () => {
    for (const path of ['/', '/login', '/lab-orders/abc/edit/order-builder', '/account?x=1']) {
      const res = await t.app.inject({ method: 'GET', url: path });
      expect([path, res.statusCode]).toEqual([path, 200]);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('serves hashed assets with a long cache, and a missing file as a 404', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await t.app.inject({ method: 'GET', url: '/assets/gone-999.js' });
    expect(missing.statusCode).toBe(404);
    expectErrorBody(missing.json(), 404);
  });

  it('never answers an unknown API path with the app', async () => {
    const res = await t.app.inject({ method: 'GET', url: api('/unknown') });
    expect(res.statusCode).toBe(404);
    expectErrorBody(res.json(), 404);
  });
});
