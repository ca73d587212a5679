/**
 * The soft proof's one call (issue 35), agreed between the proof worker and the screens that
 * show a proof (the builder's crop view and the cart preview). The worker side lives in
 * src/proof/worker, the page side in src/proof/page (its bridge is the only place that wraps the
 * worker); screens import only src/proof/page.
 */

/**
 * The rendering intents a studio can proof with: relative colorimetric with black-point
 * compensation (the default, what labs print with) and perceptual (the second choice).
 */
export type ProofIntent = 'relative' | 'perceptual';

export interface ProofAsk {
  /** The photo's id: with the paper's profile key and the intent, the cache key of the proof. */
  photo: string;
  /**
   * The screen-size preview the builder already shows (never the full original): a Blob held on
   * the device, or a URL the worker fetches (the lab's preview, cached for offline use).
   */
  source: Blob | string;
  /** The paper's output profile: its key (changes whenever the bytes change) and its bytes. */
  paper: { key: string; name: string; profile: ArrayBuffer };
  intent: ProofIntent;
  /** Mark the pixels the paper cannot hold, in `gamutColour` (CSS hex, default '#ff00ff'). */
  gamutWarning: boolean;
  gamutColour?: string;
}

export interface ProofAnswer {
  /** The proofed preview as an image the crop view and the cart preview can show. */
  blob: Blob;
  width: number;
  height: number;
  /** The share of pixels outside the paper's gamut, 0..1 (for the caption). */
  outOfGamut: number;
}

/** What the page side (src/proof/page) exports for screens. */
export type ProofPhoto = (ask: ProofAsk) => Promise<ProofAnswer>;
