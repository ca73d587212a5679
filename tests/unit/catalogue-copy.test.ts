import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readCalculatorCatalogue } from '../../src/offline/catalogue-copy.ts';
import { SHARED_OWNER } from '../../src/offline/cached-read.ts';
import { labDb } from '../../src/offline/db.ts';

const catalogue = { data: [], finishing: {}, options: {} };
let asked = 0;

function serve(respond: () => Promise<Response>) {
  asked = 0;
  vi.stubGlobal('fetch', async () => {
    asked += 1;
    return respond();
  });
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await labDb.cachedReads.clear();
});

// The module keeps its last read between tests: each test moves the clock past the reuse window.
let clock = 1_000_000_000;
const later = () => (clock += 60 * 60 * 1000);

describe("the calculator's catalogue on the device", () => {
  it('is asked of the server once however many screens read it on one page load', async () => {
    serve(async () => new Response(JSON.stringify(catalogue), { status: 200 }));
    const now = later();
    const [a, b] = await Promise.all([readCalculatorCatalogue(now), readCalculatorCatalogue(now)]);
    const c = await readCalculatorCatalogue(now + 1000);
    expect(asked).toBe(1);
    expect([a.data, b.data, c.data]).toEqual([catalogue, catalogue, catalogue]);
    // Long after, the server is asked again (it answers an unchanged catalogue with a 304).
    await readCalculatorCatalogue(later());
    expect(asked).toBe(2);
  });

  it('does not keep reusing an offline copy, and refuses a copy of the old shape', async () => {
    serve(async () => new Response(JSON.stringify(catalogue), { status: 200 }));
    await readCalculatorCatalogue(later());
    serve(() => Promise.reject(new TypeError('Failed to fetch')));
    const now = later();
    const offline = await readCalculatorCatalogue(now);
    expect(offline.cachedAt).not.toBeNull();
    await readCalculatorCatalogue(now + 1000);
    expect(asked).toBe(2);

    await labDb.cachedReads.put({ key: `${SHARED_OWNER}|calculator_catalogue`, owner: SHARED_OWNER, savedAt: 1, payload: { data: [{ print_size_pricings: [] }] } });
    await expect(readCalculatorCatalogue(later())).rejects.toMatchObject({ kind: 'network' });
  });
});
