import { describe, expect, it } from 'vitest';
import { moduleLoader } from '../../src/ui/use-module.ts';

describe('moduleLoader', () => {
  it('fetches once, however often asked, and keeps the module once it is in', async () => {
    let fetched = 0;
    const loader = moduleLoader(async () => ({ fetched: ++fetched }));
    expect(loader.current()).toBeUndefined();
    const [a, b] = await Promise.all([loader.load(), loader.load()]);
    expect(a).toBe(b);
    expect(loader.current()).toBe(a);
    await loader.load();
    expect(fetched).toBe(1);
  });

  it('asks again after a failed fetch (a dropped connection, a renamed chunk)', async () => {
    let tries = 0;
    const loader = moduleLoader(async () => {
      tries += 1;
      if (tries === 1) throw new Error('Failed to fetch dynamically imported module');
      return { tries };
    });
    await expect(loader.load()).rejects.toThrow('Failed to fetch');
    expect(loader.current()).toBeUndefined();
    await expect(loader.load()).resolves.toEqual({ tries: 2 });
    expect(loader.current()).toEqual({ tries: 2 });
  });
});
