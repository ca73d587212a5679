import { create } from 'zustand';
import type { ProofIntent } from '../shared/proof-api.ts';

/**
 * The soft proof's switches, shared by the builder's crop view and the cart preview for the
 * page's life: a studio that turned the proof on sees it on every photo it opens next.
 */
export interface ProofSettings {
  on: boolean;
  gamutWarning: boolean;
  intent: ProofIntent;
}

export const useProofSettings = create<ProofSettings>(() => ({ on: false, gamutWarning: false, intent: 'relative' }));

export const setProofSettings = (change: Partial<ProofSettings>) => useProofSettings.setState(change);

/** The intents as the caption and the choice name them. */
export const INTENT_NAMES: Record<ProofIntent, string> = {
  relative: 'relative colorimetric with black-point compensation',
  perceptual: 'perceptual',
};
