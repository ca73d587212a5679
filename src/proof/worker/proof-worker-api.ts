/**
 * The proof worker's one API object (workers/proof-worker.ts exposes it over Comlink): LittleCMS
 * loads on the first ask, proof tables are kept per (photo profile, paper, intent) in
 * ProofTransforms, decoded previews per (photo, preview), and finished proofs per (photo,
 * preview, paper, intent, gamut warning).
 */
import { instantiate, type Lcms } from 'lcms-wasm';
import wasmUrl from 'lcms-wasm/dist/lcms.wasm?url';
import type { ProofAnswer, ProofAsk } from '../shared/proof-api.ts';
import type { ProofWorkerApi } from '../shared/proof-worker-protocol.ts';
import { ProofTransforms, markGamut, parseGamutColour, type ProofPixels } from './proof-transform.ts';
import { previewBlob, previewPixels, proofFile, type PreviewPixels } from './preview-pixels.ts';

export const DEFAULT_GAMUT_COLOUR = '#ff00ff';

// Finished proofs kept: the file of a 2,048-px preview is about 11 MB (a phone's memory is the
// limit), and a builder flips the gamut warning and the intent on the photo on show, and goes back
// to the photo before: 2 photos × 2 intents × the warning on and off is 8. The page keeps its own
// handle on the proofs it shows, so a proof dropped here still shows there.
const PROOFS_KEPT = 8;
// Proofed pixels kept before marking (11 MB each): enough to turn the gamut warning on and off
// for the photo on show without proofing again.
const PIXELS_KEPT = 2;
// Decoded previews kept (11 MB each): the photo on show, so that another paper or intent does not
// decode it again, and the one before it.
const PREVIEWS_KEPT = 2;

/** A Map that forgets its least recently used entries past `limit`. */
class Recent<V> {
  readonly #map = new Map<string, V>();
  constructor(private readonly limit: number) {}
  get(key: string): V | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }
  delete(key: string, v: V): void {
    if (this.#map.get(key) === v) this.#map.delete(key);
  }
  set(key: string, v: V): void {
    this.#map.delete(key);
    this.#map.set(key, v);
    while (this.#map.size > this.limit) this.#map.delete(this.#map.keys().next().value as string);
  }
}

/** Which preview the ask is of: the lab's (a URL) and the device's (a Blob) differ in size. */
const sourceKey = (source: Blob | string) => (typeof source === 'string' ? source : `blob-${source.size}-${source.type}`);

interface Proofed extends ProofPixels {
  width: number;
  height: number;
}

export function proofWorkerApi(loadLcms: () => Promise<Lcms> = () => instantiate({ locateFile: () => wasmUrl })): ProofWorkerApi {
  let transforms: Promise<ProofTransforms> | null = null;
  const proofs = new Recent<Promise<ProofAnswer>>(PROOFS_KEPT);
  const pixels = new Recent<Promise<Proofed>>(PIXELS_KEPT);
  const previews = new Recent<Promise<PreviewPixels>>(PREVIEWS_KEPT);

  const engine = () => {
    transforms ??= loadLcms().then((lcms) => new ProofTransforms(lcms));
    // A failed load is tried again on the next ask.
    transforms.catch(() => (transforms = null));
    return transforms;
  };

  /** The preview's pixels, decoded once for every paper and intent. */
  const decoded = (ask: ProofAsk): Promise<PreviewPixels> => {
    const key = `${ask.photo}|${sourceKey(ask.source)}`;
    let made = previews.get(key);
    if (!made) {
      made = previewBlob(ask.source).then(previewPixels);
      previews.set(key, made);
      const failed = made;
      failed.catch(() => previews.delete(key, failed));
    }
    return made;
  };

  async function proofed(ask: ProofAsk): Promise<Proofed> {
    const [engineReady, preview] = await Promise.all([engine(), decoded(ask)]);
    const paper = { key: ask.paper.key, bytes: new Uint8Array(ask.paper.profile) };
    return { ...engineReady.proof(preview.rgba, preview.icc, paper, ask.intent), width: preview.width, height: preview.height };
  }

  async function answer(ask: ProofAsk, base: string): Promise<ProofAnswer> {
    let made = pixels.get(base);
    if (!made) {
      made = proofed(ask);
      pixels.set(base, made);
      // A failed proof is not kept: the next ask tries again.
      const failed = made;
      failed.catch(() => pixels.delete(base, failed));
    }
    const p = await made;
    const colour = ask.gamutWarning ? parseGamutColour(ask.gamutColour ?? DEFAULT_GAMUT_COLOUR) : null;
    const blob = proofFile(colour ? markGamut(p, colour) : p.pixels, p.width, p.height);
    return { blob, width: p.width, height: p.height, outOfGamut: p.outside.length / (p.width * p.height) };
  }

  return {
    proof(ask) {
      const base = [ask.photo, sourceKey(ask.source), ask.paper.key, ask.intent].join('|');
      const key = `${base}|${ask.gamutWarning ? (ask.gamutColour ?? DEFAULT_GAMUT_COLOUR) : 'no-warning'}`;
      const cached = proofs.get(key);
      if (cached) return cached;
      const made = answer(ask, base);
      proofs.set(key, made);
      made.catch(() => proofs.delete(key, made));
      return made;
    },
  };
}
