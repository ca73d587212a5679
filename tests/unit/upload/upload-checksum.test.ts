import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HASH_SLICE_BYTES, sha256Hex, sha256Streamed } from '../../../src/upload/worker/checksum.ts';

describe("the upload worker's SHA-256", () => {
  it('is the same hex digest in one read (WebCrypto) and streamed in slices (hash-wasm)', async () => {
    for (const size of [0, 1, HASH_SLICE_BYTES - 1, HASH_SLICE_BYTES + 17]) {
      const bytes = randomBytes(size);
      const expected = createHash('sha256').update(bytes).digest('hex');
      expect(await sha256Hex(new Blob([bytes]))).toBe(expected);
      expect(await sha256Streamed(new Blob([bytes]))).toBe(expected);
    }
  });
});
