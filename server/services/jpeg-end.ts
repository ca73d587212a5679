/**
 * Whether a JPEG's image data runs to its End Of Image marker, found in the same single pass that
 * hashes the stored photo (photo-checks.ts), instead of decoding every pixel on the request
 * (docs/performance-notes.md §8: the decode happens once, in the derivatives job). A cut-off JPEG never reaches
 * its EOI. The walk follows the marker segments (jumping over their declared lengths, so an
 * embedded EXIF preview's own EOI does not count) and scans the entropy-coded data for the next
 * real marker (0xFF followed by neither a stuffed 0x00, a restart marker nor fill). Bytes after
 * the EOI (a phone's motion-photo video, an MPF second image) are not looked at.
 */

type Mode = 'marker' | 'skip' | 'scan' | 'done';

/** Markers that stand alone, without a length: TEM, RST0-7, SOI. */
const standalone = (code: number) => code === 0x01 || (code >= 0xd0 && code <= 0xd8);
const SOS = 0xda;
const EOI = 0xd9;

export class JpegEndScanner {
  #mode: Mode = 'marker';
  #skipLeft = 0;
  /** Bytes at the end of a chunk that are the start of something the next chunk finishes. */
  #carry: Buffer = Buffer.alloc(0);
  #afterSos = false;
  #broken = false;

  /** True once the EOI that ends the image data was seen. */
  get complete(): boolean {
    return this.#mode === 'done' && !this.#broken;
  }

  /** Feed the file's bytes in order, from its first byte (SOI). */
  push(chunk: Buffer): void {
    if (this.#mode === 'done') return;
    const data = this.#carry.length ? Buffer.concat([this.#carry, chunk]) : chunk;
    this.#carry = Buffer.alloc(0);
    let i = 0;
    // Every way to 'done' returns at once; the SOI is the first standalone marker.
    while (i < data.length) {
      if (this.#mode === 'skip') {
        const step = Math.min(this.#skipLeft, data.length - i);
        i += step;
        this.#skipLeft -= step;
        if (this.#skipLeft === 0) this.#mode = this.#afterSos ? 'scan' : 'marker';
        continue;
      }
      if (this.#mode === 'scan') {
        const ff = data.indexOf(0xff, i);
        if (ff < 0) return;
        if (ff + 1 >= data.length) {
          this.#carry = Buffer.from(data.subarray(ff));
          return;
        }
        const next = data[ff + 1] ?? 0;
        // Stuffed byte, restart marker, or fill: still image data.
        if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) {
          i = next === 0xff ? ff + 1 : ff + 2;
          continue;
        }
        i = ff;
        this.#mode = 'marker';
        this.#afterSos = false;
        continue;
      }
      // 'marker': 0xFF, the code, and for most codes a two-byte length that includes itself.
      if (data[i] !== 0xff) {
        this.#broken = true;
        this.#mode = 'done';
        return;
      }
      if (i + 1 >= data.length) {
        this.#carry = Buffer.from(data.subarray(i));
        return;
      }
      const code = data[i + 1] ?? 0;
      if (code === 0xff) {
        i += 1;
        continue;
      }
      if (code === EOI) {
        this.#mode = 'done';
        return;
      }
      if (standalone(code)) {
        i += 2;
        continue;
      }
      if (i + 3 >= data.length) {
        this.#carry = Buffer.from(data.subarray(i));
        return;
      }
      const length = ((data[i + 2] ?? 0) << 8) | (data[i + 3] ?? 0);
      if (length < 2) {
        this.#broken = true;
        this.#mode = 'done';
        return;
      }
      this.#afterSos = code === SOS;
      this.#skipLeft = length + 2;
      this.#mode = 'skip';
    }
  }
}
