/**
 * The proof as a table on a grid of the photo's RGB, applied to the pixels by tetrahedral
 * interpolation. LittleCMS computes every node as the lab prints and the screen then shows the
 * print: the photo into the paper's device values (16 bits, so clipped to what the printer can
 * lay down), then those values to the display. LittleCMS's joined proofing transform skips that
 * clip for matrix printer profiles and shows colours the paper cannot print; the table clips as
 * the print does.
 */

// A node every 4 levels of 8 bits, 65 a channel (the last at 255, 3 levels on): across a 4-level
// cell the proof is smooth enough to interpolate even where the paper clips, and the table (65³
// nodes, 1.6 MB) takes each LittleCMS transform one pass over the nodes. The gamut warning's grid shares its nodes.
const STEP = 4;
export const GRID = Math.ceil(255 / STEP) + 1;
const CELLS = GRID - 1;

/** The 8-bit value of a node along one channel. */
export const nodeValue = (i: number) => Math.min(255, i * STEP);

// Weights in 256ths, values in 256ths of an 8-bit level: the sum of a corner and three weighted
// steps fits an int32 and rounds to 8 bits with one shift.
const WEIGHT_ONE = 256;
const VALUE_SCALE = 256;
const HALF = (WEIGHT_ONE * VALUE_SCALE) / 2;

/** Per 8-bit value: its cell's first node along a channel and its weight towards the next. */
const CELL = new Int32Array(256);
const WEIGHT = new Int32Array(256);
/** Per 8-bit value: its nearest node. */
const NEAREST = new Int32Array(256);
for (let v = 0; v < 256; v++) {
  const cell = Math.min(CELLS - 1, Math.floor(v / STEP));
  const from = nodeValue(cell);
  CELL[v] = cell;
  WEIGHT[v] = Math.round(((v - from) * WEIGHT_ONE) / (nodeValue(cell + 1) - from));
  NEAREST[v] = Math.min(CELLS, Math.round(v / STEP));
}

/** The 8-bit RGB of every node, red slowest, blue fastest, as LittleCMS's input. */
export function gridNodes(): Uint8Array {
  const nodes = new Uint8Array(GRID * GRID * GRID * 3);
  for (let r = 0, i = 0; r < GRID; r++) {
    for (let g = 0; g < GRID; g++) {
      for (let b = 0; b < GRID; b++, i += 3) {
        nodes[i] = nodeValue(r);
        nodes[i + 1] = nodeValue(g);
        nodes[i + 2] = nodeValue(b);
      }
    }
  }
  return nodes;
}

export interface ProofTable {
  /** Per node, its proofed RGB in 256ths of an 8-bit level. */
  values: Uint16Array;
  /** Per node, 1 where the paper cannot hold it. */
  outside: Uint8Array;
}

/** The table of node colours from LittleCMS's 16-bit display RGB of every node. */
export function tableValues(display16: ArrayLike<number>): Uint16Array {
  const values = new Uint16Array(GRID * GRID * GRID * 3);
  for (let i = 0; i < values.length; i++) values[i] = Math.round(((display16[i] ?? 0) * 255 * VALUE_SCALE) / 65535);
  return values;
}

// The last colours proofed, by a hash of their RGB: neighbouring pixels of a photo repeat colours
// often, and a hit costs a lookup instead of an interpolation. 2^16 entries (512 KB) stay in the
// CPU's cache.
const MEMO_BITS = 16;
const MEMO_SIZE = 1 << MEMO_BITS;
// Knuth's multiplicative hash: spreads neighbouring colours over the memo.
const HASH = 0x9e3779b1;

/** Little-endian RGBA words (every browser and Node's targets are little-endian). */
function words(bytes: Uint8Array | Uint8ClampedArray): Uint32Array {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  return new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length >> 2);
}

/**
 * Proofs `rgba` through the table into `out` (RGBA, alpha copied) and answers the indices of the
 * pixels whose nearest node is outside the paper.
 */
export function applyTable(table: ProofTable, rgba: Uint8Array | Uint8ClampedArray, out: Uint8Array): Uint32Array {
  const { values: v, outside } = table;
  const input = words(rgba);
  const output = new Uint32Array(out.buffer, out.byteOffset, out.length >> 2);
  const count = input.length;
  const found = new Uint32Array(count);
  let n = 0;
  // Per entry: the colour plus one (0: empty), and its proof with the outside flag in the top byte.
  const memoKey = new Int32Array(MEMO_SIZE);
  const memoValue = new Int32Array(MEMO_SIZE);
  const sr = GRID * GRID * 3;
  const sg = GRID * 3;
  for (let i = 0; i < count; i++) {
    const px = input[i]!;
    const rgb = px & 0xffffff;
    const slot = Math.imul(rgb, HASH) >>> (32 - MEMO_BITS);
    let proofed: number;
    if (memoKey[slot] === rgb + 1) proofed = memoValue[slot]!;
    else {
      proofed = interpolate(v, outside, rgb & 0xff, (rgb >> 8) & 0xff, rgb >> 16, sr, sg);
      memoKey[slot] = rgb + 1;
      memoValue[slot] = proofed;
    }
    output[i] = (proofed & 0xffffff) | (px & 0xff000000);
    if (proofed >>> 24) found[n++] = i;
  }
  return found.slice(0, n);
}

/** One colour's proof, RGB in the low three bytes, 1 in the top byte when it is outside the paper. */
function interpolate(v: Uint16Array, outside: Uint8Array, r: number, g: number, b: number, sr: number, sg: number): number {
  const x = WEIGHT[r]!;
  const y = WEIGHT[g]!;
  const z = WEIGHT[b]!;
  const c0 = CELL[r]! * sr + CELL[g]! * sg + CELL[b]! * 3;
  // The tetrahedron of the cell that holds the colour: from the cell's first corner, one step
  // along each channel in the order of their weights (largest first), to its far corner.
  let a = 3;
  let m = sg;
  let c = sr;
  let wa = z;
  let wm = y;
  let wc = x;
  if (x >= y && y >= z) {
    a = sr;
    m = sg;
    c = 3;
    wa = x;
    wm = y;
    wc = z;
  } else if (x >= z && z > y) {
    a = sr;
    m = 3;
    c = sg;
    wa = x;
    wm = z;
    wc = y;
  } else if (z > x && x >= y) {
    m = sr;
    c = sg;
    wm = x;
    wc = y;
  } else if (y > x && x >= z) {
    a = sg;
    m = sr;
    c = 3;
    wa = y;
    wm = x;
    wc = z;
  } else if (y >= z && z > x) {
    a = sg;
    m = 3;
    c = sr;
    wa = y;
    wm = z;
    wc = x;
  }
  const c1 = c0 + a;
  const c2 = c1 + m;
  const c3 = c2 + c;
  const red = (v[c0]! * WEIGHT_ONE + (v[c1]! - v[c0]!) * wa + (v[c2]! - v[c1]!) * wm + (v[c3]! - v[c2]!) * wc + HALF) >> 16;
  const green = (v[c0 + 1]! * WEIGHT_ONE + (v[c1 + 1]! - v[c0 + 1]!) * wa + (v[c2 + 1]! - v[c1 + 1]!) * wm + (v[c3 + 1]! - v[c2 + 1]!) * wc + HALF) >> 16;
  const blue = (v[c0 + 2]! * WEIGHT_ONE + (v[c1 + 2]! - v[c0 + 2]!) * wa + (v[c2 + 2]! - v[c1 + 2]!) * wm + (v[c3 + 2]! - v[c2 + 2]!) * wc + HALF) >> 16;
  return red | (green << 8) | (blue << 16) | (outside[(NEAREST[r]! * GRID + NEAREST[g]!) * GRID + NEAREST[b]!]! << 24);
}
