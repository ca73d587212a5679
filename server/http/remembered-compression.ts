import { brotliCompressSync, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';

/**
 * zlib's one-shot compressors for @fastify/compress (its `zlib` option) that remember the answers
 * they compressed last. Many answers are the same text again and again (a photographer's kept
 * orders page, the status of an order being watched), and compressing the same bytes with the
 * same options gives the same bytes: looking them up costs a copy of the text, compressing it
 * again costs several times that on the server's one thread. Streams and the other codings stay
 * zlib's own (the plugin falls back to them).
 */
export function rememberedCompression(maxBytes: number) {
  const kept = new Map<string, Buffer>();
  let bytes = 0;
  const remembered =
    <O>(coding: string, compress: (input: Buffer, options?: O) => Buffer) =>
    (input: Buffer, options?: O): Buffer => {
      // The bytes as a string, one character a byte: a Map key that compares by content.
      const key = `${coding}:${input.toString('latin1')}`;
      const hit = kept.get(key);
      if (hit) {
        // Most recently used last: the oldest entries are the first dropped.
        kept.delete(key);
        kept.set(key, hit);
        return hit;
      }
      const out = compress(input, options);
      const size = key.length + out.length;
      if (size > maxBytes) return out;
      kept.set(key, out);
      bytes += size;
      for (const [k, v] of kept) {
        if (bytes <= maxBytes) break;
        kept.delete(k);
        bytes -= k.length + v.length;
      }
      return out;
    };
  return {
    brotliCompressSync: remembered<BrotliOptions>('br', brotliCompressSync),
    gzipSync: remembered<ZlibOptions>('gzip', gzipSync),
  };
}
