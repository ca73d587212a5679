/**
 * How a photo is cut into parts for S3-style multipart upload (docs/upload-and-sync.md §1): above 16 MiB
 * the client asks for multipart and the server chooses the part size (at least 5 MiB, the S3
 * minimum); every part but the last has that size.
 */
export const MiB = 1024 * 1024;

/**
 * Files above this go in parts. A 10–60 MB photo then has 2–12 parts, so a drop at 55 MB costs
 * one part, not the whole file (Uppy's 100 MiB default sends every such photo in one PUT).
 */
export const MULTIPART_THRESHOLD = 16 * MiB;

/** S3 refuses parts below 5 MiB (but the last); the server never answers a smaller part size. */
export const MIN_PART_SIZE = 5 * MiB;

// The lab checks the same limit (src/domain: the server and the contract use it too).
export { MAX_PARTS } from '../../domain/multipart-limit.ts';

export const usesMultipart = (size: number) => size > MULTIPART_THRESHOLD;

export function partCount(size: number, partSize: number): number {
  if (partSize < 1) throw new Error(`bad part size ${partSize}`);
  return Math.max(1, Math.ceil(size / partSize));
}

/** The bytes of part `partNumber` (1-based): [start, end). */
export function partRange(size: number, partSize: number, partNumber: number): { start: number; end: number } {
  const count = partCount(size, partSize);
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > count) throw new Error(`part ${partNumber} of ${count}`);
  const start = (partNumber - 1) * partSize;
  return { start, end: Math.min(size, start + partSize) };
}

/** The part numbers still to send, in order: a resume starts from the first missing one. */
export function missingParts(count: number, done: Iterable<number>): number[] {
  const have = new Set(done);
  const missing: number[] = [];
  for (let n = 1; n <= count; n++) if (!have.has(n)) missing.push(n);
  return missing;
}

export interface FinishedPart {
  partNumber: number;
  etag: string;
}

/** complete_upload's list: every part once, in order (S3 refuses anything else). */
export function partsForCompletion(parts: readonly FinishedPart[], count: number): FinishedPart[] {
  const byNumber = new Map(parts.map((p) => [p.partNumber, p]));
  const missing = missingParts(count, byNumber.keys());
  if (missing.length) throw new Error(`parts ${missing.join(', ')} are not sent yet`);
  return [...byNumber.values()]
    .filter((p) => p.partNumber <= count)
    .sort((a, b) => a.partNumber - b.partNumber)
    .map(({ partNumber, etag }) => ({ partNumber, etag }));
}

/** Bytes already stored for a file: the sum of its finished parts' sizes. */
export function bytesInParts(size: number, partSize: number, done: Iterable<number>): number {
  let sum = 0;
  for (const n of new Set(done)) {
    const { start, end } = partRange(size, partSize, n);
    sum += end - start;
  }
  return sum;
}
