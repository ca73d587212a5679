import { createSHA256 } from 'hash-wasm';

/**
 * Slices of 4 MiB: large enough that the per-slice overhead vanishes (a 60 MB photo is 15 reads),
 * small enough that the worker holds 4 MiB of the photo at a time, whatever its size.
 */
export const HASH_SLICE_BYTES = 4 * 1024 * 1024;

/** SHA-256 of a Blob, hex, streamed through hash-wasm one slice at a time. */
export async function sha256Hex(file: Blob): Promise<string> {
  const hasher = await createSHA256();
  hasher.init();
  for (let offset = 0; offset < file.size; offset += HASH_SLICE_BYTES) {
    const slice = await file.slice(offset, offset + HASH_SLICE_BYTES).arrayBuffer();
    hasher.update(new Uint8Array(slice));
  }
  return hasher.digest('hex');
}
