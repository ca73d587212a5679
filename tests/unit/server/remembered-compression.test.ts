import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { rememberedCompression } from '../../../server/http/remembered-compression.ts';

const page = (n: number) => Buffer.from(JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ order: `Wedding #${n}-${i}`, total_cents: i * 137 })) }));
const brotli = { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } };

describe('remembered compression', () => {
  it("gives zlib's own bytes, and the same buffer for the same text without compressing it again", () => {
    const zlib = rememberedCompression(1024 * 1024);
    const first = zlib.brotliCompressSync(page(1), brotli);
    expect(first.equals(brotliCompressSync(page(1), brotli))).toBe(true);
    expect(zlib.brotliCompressSync(page(1), brotli)).toBe(first);
    const gz = zlib.gzipSync(page(1), { level: 1 });
    expect(gunzipSync(gz).equals(page(1))).toBe(true);
    expect(gz.equals(gzipSync(page(1), { level: 1 }))).toBe(true);
    expect(zlib.gzipSync(page(1), { level: 1 })).toBe(gz);
    // Another text is compressed on its own.
    expect(brotliDecompressSync(zlib.brotliCompressSync(page(2), brotli)).equals(page(2))).toBe(true);
  });

  it('forgets the least recently used answers beyond its size', () => {
    const size = page(1).length;
    const zlib = rememberedCompression(size * 2.5);
    const one = zlib.brotliCompressSync(page(1), brotli);
    const two = zlib.brotliCompressSync(page(2), brotli);
    expect(zlib.brotliCompressSync(page(1), brotli)).toBe(one);
    zlib.brotliCompressSync(page(3), brotli);
    // Page 2 was the least recently used: compressed afresh; page 1 is still kept.
    expect(zlib.brotliCompressSync(page(1), brotli)).toBe(one);
    expect(zlib.brotliCompressSync(page(2), brotli)).not.toBe(two);
  });
});
