import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENCH_FLOOR_MAX_BYTES, BENCH_FLOOR_PATH, floorBody } from '../../server/routes/bench-floor-routes.ts';
import { api, createTestApp, expectErrorBody, type TestApp } from './helper.ts';

// The bench's static floor route (npm run bench) exists only when BENCH_FLOOR is set.
let normal: TestApp;
let bench: TestApp;
beforeAll(async () => {
  normal = await createTestApp();
  bench = await createTestApp({ BENCH_FLOOR: 'true' });
});
afterAll(async () => {
  await normal.close();
  await bench.close();
});

const openapiPaths = async (t: TestApp) => Object.keys((await t.app.inject({ method: 'GET', url: api('/openapi.json') })).json().paths as object);

describe('the bench floor route', () => {
  it('is absent in a normal run: 404 with the error body', async () => {
    const res = await normal.app.inject({ method: 'GET', url: `${api(BENCH_FLOOR_PATH)}?bytes=1000` });
    expect(res.statusCode).toBe(404);
    expectErrorBody(res.json(), 404);
  });

  it('with BENCH_FLOOR answers JSON of exactly the bytes asked for', async () => {
    for (const bytes of [16, 19, 20, 117, 4096, 250_000]) {
      const res = await bench.app.inject({ method: 'GET', url: `${api(BENCH_FLOOR_PATH)}?bytes=${bytes}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.rawPayload.length).toBe(bytes);
      expect(() => JSON.parse(res.body)).not.toThrow();
    }
    // Precomputed: the same bytes every time, so runs compare.
    expect(floorBody(4096).equals(floorBody(4096))).toBe(true);
  });

  it('refuses sizes out of bounds with a clear message', async () => {
    for (const bytes of ['0', '15', String(BENCH_FLOOR_MAX_BYTES + 1), '1.5', 'lots']) {
      const res = await bench.app.inject({ method: 'GET', url: `${api(BENCH_FLOOR_PATH)}?bytes=${bytes}` });
      expect(res.statusCode).toBe(422);
      expect(expectErrorBody(res.json(), 422).message).toMatch(/bytes must be a whole number/);
    }
  });

  it('is never in the OpenAPI document', async () => {
    expect(await openapiPaths(normal)).not.toContain(api(BENCH_FLOOR_PATH));
    const paths = await openapiPaths(bench);
    expect(paths).toContain(api('/status'));
    expect(paths).not.toContain(api(BENCH_FLOOR_PATH));
  });
});
