import { createSHA256 } from 'hash-wasm';

/**
 * Slices of 4 MiB: large enough that the per-slice overhead vanishes (a 60 MB photo is 15 reads),
 * small enough that the worker holds 4 MiB of the photo at a time, whatever its size.
 */
export const HASH_SLICE_BYTES = 4 * 1024 * 1024;
/**
 * Photos up to 64 MiB (nearly every camera file) are hashed in one read by WebCrypto, which runs
 * natively and off the worker's thread: 15-25 ms for 20 MB here, against 65-120 ms through
 * hash-wasm (measured in Chromium on the bench machine, docs/performance-notes.md §7). Two photos are checked
 * at a time (CHECKS_AT_ONCE, src/upload/page/upload-prepare.ts): the worker holds two such reads at
 * most. Larger files stream through hash-wasm.
 */
export const ONE_READ_MAX_BYTES = 64 * 1024 * 1024;

const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** SHA-256 of a Blob, hex. */
export async function sha256Hex(file: Blob): Promise<string> {
  if (file.size <= ONE_READ_MAX_BYTES && typeof crypto !== 'undefined' && crypto.subtle) {
    return hex(await crypto.subtle.digest('SHA-256', await file.arrayBuffer()));
  }
  return sha256Streamed(file);
}

/** SHA-256 of a Blob of any size, hex, streamed through hash-wasm one slice at a time. */
export async function sha256Streamed(file: Blob): Promise<string> {
  const hasher = await createSHA256();
  hasher.init();
  for (let offset = 0; offset < file.size; offset += HASH_SLICE_BYTES) {
    const slice = await file.slice(offset, offset + HASH_SLICE_BYTES).arrayBuffer();
    hasher.update(new Uint8Array(slice));
  }
  return hasher.digest('hex');
}
