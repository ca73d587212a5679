import type { Lcms } from 'lcms-wasm';
import { describe, expect, it } from 'vitest';
import { lazyLittleCms } from '../../../server/adapters/colour/little-cms.ts';

/** The app's LittleCMS: loaded on the first check, once, and again after a failed load. */
describe('lazyLittleCms', () => {
  const engine = {} as Lcms;

  it('loads nothing until asked, then once for every caller', async () => {
    let loads = 0;
    const littleCms = lazyLittleCms(async () => {
      loads += 1;
      return engine;
    });
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([littleCms(), littleCms()]);
    expect(await littleCms()).toBe(engine);
    expect([a, b, loads]).toEqual([engine, engine, 1]);
  });

  it('tries again after a failed load', async () => {
    let loads = 0;
    const littleCms = lazyLittleCms(async () => {
      loads += 1;
      if (loads === 1) throw new Error('no WebAssembly memory');
      return engine;
    });
    await expect(littleCms()).rejects.toThrow('no WebAssembly memory');
    expect(await littleCms()).toBe(engine);
    expect(loads).toBe(2);
  });
});
