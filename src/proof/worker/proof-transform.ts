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
import type { ProofIntent } from '../shared/proof-api.ts';
import { profileKey } from './photo-profile.ts';

/**
 * What LittleCMS writes for a pixel its gamut check finds outside the paper: its default alarm
 * code (0x7F00 on 16 bits, 127 on 8). lcms-wasm does not export cmsSetAlarmCodes, so the proof
 * cannot choose the colour there; it finds the alarm pixels and paints its own colour instead.
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
  gamut: number;
}

/** The LittleCMS intents and flags of each of our intents. */
function intentOf(intent: ProofIntent): { lcms: number; flags: number } {
  // Relative colorimetric maps the photo's black to the paper's black (black-point compensation),
  // as labs print. Perceptual's own tables already compress the tones to the paper's range, so
  // no compensation is asked on top (libvips, which the lab's derivatives use, asks none either).
  return intent === 'relative' ? { lcms: INTENT_RELATIVE_COLORIMETRIC, flags: cmsFLAGS_BLACKPOINTCOMPENSATION } : { lcms: INTENT_PERCEPTUAL, flags: 0 };
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
    const { proof, gamut } = this.#transforms(photoIcc, paper, intent);
    // One pass with LittleCMS's gamut check: the proofed colours, with the alarm code where the
    // paper falls short. Only the alarm-coloured pixels go through the plain proof again, to
    // tell a real mid grey from an alarm and to give the out-of-gamut pixels their proofed colour.
    const pixels = this.#lcms.cmsDoTransform(gamut, rgba, count) as Uint8Array;
    const found = new Uint32Array(count);
    let n = 0;
    for (let i = 0, p = 0; i < count; i++, p += 4) {
      if (pixels[p] === ALARM && pixels[p + 1] === ALARM && pixels[p + 2] === ALARM) found[n++] = i;
    }
    if (!n) return { pixels, outside: new Uint32Array(0) };
    const candidates = found.subarray(0, n);
    const picked = new Uint8Array(n * 4);
    for (let k = 0; k < n; k++) {
      const at = (candidates[k] ?? 0) * 4;
      picked.set(rgba.subarray(at, at + 4), k * 4);
    }
    const plain = this.#lcms.cmsDoTransform(proof, picked, n) as Uint8Array;
    let outsideCount = 0;
    for (let k = 0; k < n; k++) {
      const r = plain[k * 4] ?? 0;
      const g = plain[k * 4 + 1] ?? 0;
      const b = plain[k * 4 + 2] ?? 0;
      // A pixel the plain proof also gives as the alarm grey is that grey, inside the gamut.
      if (r === ALARM && g === ALARM && b === ALARM) continue;
      const at = (candidates[k] ?? 0) * 4;
      pixels[at] = r;
      pixels[at + 1] = g;
      pixels[at + 2] = b;
      candidates[outsideCount++] = candidates[k] ?? 0;
    }
    return { pixels, outside: candidates.slice(0, outsideCount) };
  }

  /** Builds (or finds) the proof and gamut-check transforms of one photo profile, paper and intent. */
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
      const made = { proof, gamut };
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
      this.#lcms.cmsDeleteTransform(made.gamut);
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
