import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MiB, bytesInParts, missingParts, partCount, partRange, partsForCompletion, usesMultipart } from '../../../src/upload/shared/multipart-plan.ts';

describe('multipart plan', () => {
  it('goes multipart above 16 MiB only', () => {
    expect(usesMultipart(16 * MiB)).toBe(false);
    expect(usesMultipart(16 * MiB + 1)).toBe(true);
  });

  it('cuts a 23 MB photo into 5 MiB parts, the last one short', () => {
    const size = 23_000_000;
    expect(partCount(size, 5 * MiB)).toBe(5);
    expect(partRange(size, 5 * MiB, 1)).toEqual({ start: 0, end: 5 * MiB });
    expect(partRange(size, 5 * MiB, 5)).toEqual({ start: 4 * 5 * MiB, end: size });
    expect(() => partRange(size, 5 * MiB, 6)).toThrow('part 6 of 5');
    expect(() => partRange(size, 5 * MiB, 0)).toThrow('part 0 of 5');
  });

  it('parts cover every byte exactly once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 * MiB }), fc.integer({ min: 5 * MiB, max: 64 * MiB }), (size, partSize) => {
        let next = 0;
        for (let n = 1; n <= partCount(size, partSize); n++) {
          const { start, end } = partRange(size, partSize, n);
          expect(start).toBe(next);
          expect(end).toBeGreaterThan(start);
          next = end;
        }
        expect(next).toBe(size);
      }),
    );
  });

  it('resumes from the first missing part, whatever order parts finished in', () => {
    expect(missingParts(6, [1, 2, 4])).toEqual([3, 5, 6]);
    expect(missingParts(3, [3, 2, 1, 1])).toEqual([]);
    expect(bytesInParts(12 * MiB, 5 * MiB, [1, 3, 3])).toBe(5 * MiB + 2 * MiB);
  });

  it('completes with every part once, in order, and not before all are sent', () => {
    const parts = [
      { partNumber: 2, etag: '"b"' },
      { partNumber: 1, etag: '"a"' },
      { partNumber: 3, etag: '"c"' },
    ];
    expect(partsForCompletion(parts, 3)).toEqual([
      { partNumber: 1, etag: '"a"' },
      { partNumber: 2, etag: '"b"' },
      { partNumber: 3, etag: '"c"' },
    ]);
    expect(() => partsForCompletion(parts.slice(0, 2), 3)).toThrow('parts 3 are not sent yet');
  });
});
