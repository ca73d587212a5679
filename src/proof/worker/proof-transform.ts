/**
 * The soft proof's colour work, on RGBA pixels, with LittleCMS: from the photo's own profile
 * (embedded, or sRGB) through the paper's output profile to the display (sRGB). Pure of the
 * browser, so the unit tests and the bench run it in Node on the same LittleCMS build.
 */
import {
  INTENT_PERCEPTUAL,
  INTENT_RELATIVE_COLORIMETRIC,
  TYPE_RGBA_8,
  cmsFLAGS_BLACKPOINTCOMPENSATION,
  cmsFLAGS_COPY_ALPHA,
  cmsFLAGS_GAMUTCHECK,
  cmsFLAGS_SOFTPROOFING,
  type Lcms,
} from 'lcms-wasm';
import { PROOF_RENDERING } from '../../domain/paper-profile.ts';
import type { ProofIntent } from '../shared/proof-api.ts';
import { profileKey } from './photo-profile.ts';

/**
 * What LittleCMS writes for a pixel its gamut check finds outside the paper: its default alarm
 * code (0x7F00 on 16 bits, 127 on 8). lcms-wasm does not export cmsSetAlarmCodes, so the proof
 * cannot choose the colour there; it finds where the alarm comes out and paints its own colour.
 */
export const ALARM = 127;

// How many (photo profile, paper, intent) transforms stay built: a builder shows one paper and
// one intent at a time over photos that share a few profiles; each costs a few hundred ms to build.
const TRANSFORMS_KEPT = 8;

export interface PaperProfile {
  /** Changes whenever the bytes change. */
  key: string;
  bytes: Uint8Array;
}

export interface ProofPixels {
  /** RGBA, as the display shows the photo printed on the paper. */
  pixels: Uint8Array;
  /** The indices of the pixels the paper cannot hold. */
  outside: Uint32Array;
}

interface Transforms {
  proof: number;
  /** 1 where the node of the RGB grid falls outside the paper (see outsideOnGrid). */
  outsideGrid: Uint8Array;
}

// The gamut warning's grid: 65 steps a channel, a node every 4 levels of 8 bits, so a pixel is
// judged by a colour at most 2 levels away. LittleCMS's gamut check is itself an interpolated
// table; checking each pixel with it took about three times the proof's own pass.
const GRID = 65;
const GRID_STEP = 4;
const gridIndex = (r: number, g: number, b: number) => (((r + 2) >> 2) * GRID + ((g + 2) >> 2)) * GRID + ((b + 2) >> 2);

/**
 * Which nodes of the RGB grid the paper cannot hold, from LittleCMS's own gamut check: the
 * gamut-check transform gives the alarm grey there. A node whose plain proof is that same grey
 * is really that grey, inside.
 */
function outsideOnGrid(lcms: Lcms, proof: number, gamut: number): Uint8Array {
  const nodes = GRID * GRID * GRID;
  const grid = new Uint8Array(nodes * 4);
  for (let r = 0, i = 0; r < GRID; r++) {
    for (let g = 0; g < GRID; g++) {
      for (let b = 0; b < GRID; b++, i += 4) {
        grid[i] = Math.min(255, r * GRID_STEP);
        grid[i + 1] = Math.min(255, g * GRID_STEP);
        grid[i + 2] = Math.min(255, b * GRID_STEP);
        grid[i + 3] = 255;
      }
    }
  }
  const checked = lcms.cmsDoTransform(gamut, grid, nodes) as Uint8Array;
  const plain = lcms.cmsDoTransform(proof, grid, nodes) as Uint8Array;
  const outside = new Uint8Array(nodes);
  const alarm = (px: Uint8Array, at: number) => px[at] === ALARM && px[at + 1] === ALARM && px[at + 2] === ALARM;
  for (let i = 0; i < nodes; i++) if (alarm(checked, i * 4) && !alarm(plain, i * 4)) outside[i] = 1;
  return outside;
}

/** The LittleCMS intents and flags of each of our intents (PROOF_RENDERING says why). */
function intentOf(intent: ProofIntent): { lcms: number; flags: number } {
  const rendering = PROOF_RENDERING[intent];
  return {
    lcms: rendering.intent === 'relative colorimetric' ? INTENT_RELATIVE_COLORIMETRIC : INTENT_PERCEPTUAL,
    flags: rendering.blackPointCompensation ? cmsFLAGS_BLACKPOINTCOMPENSATION : 0,
  };
}

export class ProofTransforms {
  readonly #lcms: Lcms;
  readonly #built = new Map<string, Transforms>();

  constructor(lcms: Lcms) {
    this.#lcms = lcms;
  }

  /**
   * The proof of `rgba` (RGBA, 8 bits, `photoIcc`'s colours or sRGB's when null) on the paper,
   * and which pixels fall outside it.
   */
  proof(rgba: Uint8Array | Uint8ClampedArray, photoIcc: Uint8Array | null, paper: PaperProfile, intent: ProofIntent): ProofPixels {
    const count = rgba.length / 4;
    const { proof, outsideGrid } = this.#transforms(photoIcc, paper, intent);
    const pixels = this.#lcms.cmsDoTransform(proof, rgba, count) as Uint8Array;
    const found = new Uint32Array(count);
    let n = 0;
    for (let i = 0, p = 0; i < count; i++, p += 4) {
      if (outsideGrid[gridIndex(rgba[p] ?? 0, rgba[p + 1] ?? 0, rgba[p + 2] ?? 0)]) found[n++] = i;
    }
    return { pixels, outside: found.slice(0, n) };
  }

  /** Builds (or finds) the proof transform and gamut grid of one photo profile, paper and intent. */
  #transforms(photoIcc: Uint8Array | null, paper: PaperProfile, intent: ProofIntent): Transforms {
    const key = `${photoIcc ? profileKey(photoIcc) : 'srgb'}|${paper.key}|${intent}`;
    const found = this.#built.get(key);
    if (found) {
      // Most recently used last: the first key is the one to drop.
      this.#built.delete(key);
      this.#built.set(key, found);
      return found;
    }
    const lcms = this.#lcms;
    const photo = photoIcc ? lcms.cmsOpenProfileFromMem(photoIcc, photoIcc.length) : lcms.cmsCreate_sRGBProfile();
    if (!photo) throw new Error('The photo’s colour profile could not be read.');
    const display = lcms.cmsCreate_sRGBProfile();
    const printer = lcms.cmsOpenProfileFromMem(paper.bytes, paper.bytes.length);
    try {
      if (!printer) throw new Error(`The profile of ${paper.key} could not be read.`);
      const { lcms: lcmsIntent, flags } = intentOf(intent);
      // The paper to the display: relative colorimetric, the paper's white shown as the screen's.
      const make = (extra: number) =>
        lcms.cmsCreateProofingTransform(photo, TYPE_RGBA_8, display, TYPE_RGBA_8, printer, lcmsIntent, INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_SOFTPROOFING | cmsFLAGS_COPY_ALPHA | flags | extra);
      const proof = make(0);
      const gamut = proof ? make(cmsFLAGS_GAMUTCHECK) : 0;
      if (!proof || !gamut) {
        if (proof) lcms.cmsDeleteTransform(proof);
        throw new Error(`LittleCMS could not proof this photo on ${paper.key}: its profile is not one a proof can go through.`);
      }
      const made = { proof, outsideGrid: outsideOnGrid(lcms, proof, gamut) };
      lcms.cmsDeleteTransform(gamut);
      this.#built.set(key, made);
      this.#evict();
      return made;
    } finally {
      // A built transform keeps what it needs of the profiles.
      lcms.cmsCloseProfile(photo);
      lcms.cmsCloseProfile(display);
      if (printer) lcms.cmsCloseProfile(printer);
    }
  }

  #evict(): void {
    while (this.#built.size > TRANSFORMS_KEPT) {
      const [oldest, made] = this.#built.entries().next().value as [string, Transforms];
      this.#built.delete(oldest);
      this.#lcms.cmsDeleteTransform(made.proof);
    }
  }
}

/** `#rgb` or `#rrggbb` as [r, g, b]; anything else is refused with the reason. */
export function parseGamutColour(css: string): [number, number, number] {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(css.trim());
  if (!m?.[1]) throw new Error(`The gamut warning colour must be a CSS hex colour such as #ff00ff (got “${css}”).`);
  const hex = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

/** A copy of the proof with the pixels outside the gamut painted in `colour`. */
export function markGamut(proof: ProofPixels, colour: [number, number, number]): Uint8Array {
  const marked = proof.pixels.slice();
  for (const i of proof.outside) {
    marked[i * 4] = colour[0];
    marked[i * 4 + 1] = colour[1];
    marked[i * 4 + 2] = colour[2];
  }
  return marked;
}
