/**
 * The soft proof's colour work, on RGBA pixels, with LittleCMS: from the photo's own profile
 * (embedded, or sRGB) into the paper's device values, as the lab prints, then from those to the
 * display (sRGB), as the print is seen. LittleCMS computes that on a grid of the photo's RGB
 * (proof-table.ts), which the pixels then go through. Pure of the browser, so the unit tests and
 * the bench run it in Node on the same LittleCMS build.
 */
import {
  INTENT_PERCEPTUAL,
  INTENT_RELATIVE_COLORIMETRIC,
  TYPE_RGB_16,
  TYPE_RGB_8,
  cmsFLAGS_BLACKPOINTCOMPENSATION,
  cmsFLAGS_GAMUTCHECK,
  cmsFLAGS_SOFTPROOFING,
  type Lcms,
} from 'lcms-wasm';
import { PROOF_RENDERING } from '../../domain/paper-profile.ts';
import type { ProofIntent } from '../shared/proof-api.ts';
import { profileKey } from './photo-profile.ts';
import { GRID, applyTable, gridNodes, tableValues, type ProofTable } from './proof-table.ts';

/**
 * What LittleCMS writes for a pixel its gamut check finds outside the paper: its default alarm
 * code (0x7F00 on 16 bits, 127 on 8). lcms-wasm does not export cmsSetAlarmCodes, so the proof
 * cannot choose the colour there; it finds where the alarm comes out and paints its own colour.
 */
export const ALARM = 127;

// How many (photo profile, paper, intent) tables stay built: a builder shows one paper and one
// intent at a time over photos that share a few profiles; each costs a few hundred ms to build
// and holds 2 MB.
const TABLES_KEPT = 8;

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

// 16 bits a channel in LittleCMS's layouts (lcms2.h BYTES_SH(2)).
const SIXTEEN_BITS = 2;

/**
 * Which nodes of the grid the paper cannot hold, from LittleCMS's own gamut check: the
 * gamut-check proofing transform gives the alarm grey there. A node whose plain proof is that
 * same grey is really that grey, inside.
 */
function outsideOnGrid(lcms: Lcms, nodes: Uint8Array, plain: number, gamut: number): Uint8Array {
  const count = GRID * GRID * GRID;
  const checked = lcms.cmsDoTransform(gamut, nodes, count) as Uint8Array;
  const proofed = lcms.cmsDoTransform(plain, nodes, count) as Uint8Array;
  const outside = new Uint8Array(count);
  const alarm = (px: Uint8Array, at: number) => px[at] === ALARM && px[at + 1] === ALARM && px[at + 2] === ALARM;
  for (let i = 0; i < count; i++) if (alarm(checked, i * 3) && !alarm(proofed, i * 3)) outside[i] = 1;
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
  readonly #built = new Map<string, ProofTable>();

  constructor(lcms: Lcms) {
    this.#lcms = lcms;
  }

  /**
   * The proof of `rgba` (RGBA, 8 bits, `photoIcc`'s colours or sRGB's when null) on the paper,
   * and which pixels fall outside it.
   */
  proof(rgba: Uint8Array | Uint8ClampedArray, photoIcc: Uint8Array | null, paper: PaperProfile, intent: ProofIntent): ProofPixels {
    const pixels = new Uint8Array(rgba.length);
    const outside = applyTable(this.#table(photoIcc, paper, intent), rgba, pixels);
    return { pixels, outside };
  }

  /** Builds (or finds) the proof table of one photo profile, paper and intent. */
  #table(photoIcc: Uint8Array | null, paper: PaperProfile, intent: ProofIntent): ProofTable {
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
    const made: number[] = [];
    const refused = () => new Error(`LittleCMS could not proof this photo on ${paper.key}: its profile is not one a proof can go through.`);
    const transform = (t: number) => {
      if (!t) throw refused();
      made.push(t);
      return t;
    };
    try {
      if (!printer) throw new Error(`The profile of ${paper.key} could not be read.`);
      const { lcms: lcmsIntent, flags } = intentOf(intent);
      // Printing: the photo into the paper's own device values, 16 bits, clipped to what the
      // printer can lay down. Viewing: those values to the display, relative colorimetric, the
      // paper's white shown as the screen's.
      const deviceFormat = lcms.cmsFormatterForColorspaceOfProfile(printer, SIXTEEN_BITS, 0);
      if (!deviceFormat) throw refused();
      const print = transform(lcms.cmsCreateTransform(photo, TYPE_RGB_8, printer, deviceFormat, lcmsIntent, flags));
      const view = transform(lcms.cmsCreateTransform(printer, deviceFormat, display, TYPE_RGB_16, INTENT_RELATIVE_COLORIMETRIC, 0));
      // The gamut check is LittleCMS's proofing transform's; its plain twin tells its alarm grey
      // from a colour that really is that grey.
      const proofing = (extra: number) =>
        transform(lcms.cmsCreateProofingTransform(photo, TYPE_RGB_8, display, TYPE_RGB_8, printer, lcmsIntent, INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_SOFTPROOFING | flags | extra));
      const nodes = gridNodes();
      const count = GRID * GRID * GRID;
      const onPaper = lcms.cmsDoTransform(print, nodes, count);
      const table: ProofTable = {
        values: tableValues(lcms.cmsDoTransform(view, onPaper, count)),
        outside: outsideOnGrid(lcms, nodes, proofing(0), proofing(cmsFLAGS_GAMUTCHECK)),
      };
      this.#built.set(key, table);
      this.#evict();
      return table;
    } finally {
      // The table keeps what it needs; LittleCMS's transforms and profiles go.
      for (const t of made) lcms.cmsDeleteTransform(t);
      lcms.cmsCloseProfile(photo);
      lcms.cmsCloseProfile(display);
      if (printer) lcms.cmsCloseProfile(printer);
    }
  }

  #evict(): void {
    while (this.#built.size > TABLES_KEPT) this.#built.delete(this.#built.keys().next().value as string);
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
