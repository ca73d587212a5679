import { useEffect, useRef, useState } from 'react';
import type { PaperIccProfile } from '../../contract/catalogue.ts';
import { readPaperProfile } from '../../offline/paper-profile-copy.ts';
import { moduleLoader } from '../../ui/use-module.ts';
import type { ProofAnswer } from '../shared/proof-api.ts';
import { useProofSettings } from './proof-settings.ts';

// The bridge (and with it the worker and LittleCMS) is fetched on the first proof asked for,
// never with the screen that offers one.
const bridge = moduleLoader(() => import('./proof-bridge.ts'));

/** What a screen shows of a photo's proof. */
export interface SoftProofView {
  /** The proofed preview's address while the proof is on and ready; null: show the photo itself. */
  image: string | null;
  state: 'off' | 'working' | 'shown' | 'failed';
  /** The share of the photo the paper cannot hold, 0..1, once proofed. */
  outOfGamut: number | null;
  error: string | null;
}

export interface SoftProofSubject {
  /** The photo's id (the worker's cache key with the paper's key and the intent). */
  photo: string;
  /** The preview to proof: the lab's (a URL) or the device's own (a Blob); null: none yet. */
  source: Blob | string | null;
  paperName: string;
  profile: PaperIccProfile | null;
}

interface Shown {
  ask: string;
  url: string;
  outOfGamut: number;
}

// Proofs kept as object URLs on a screen: each holds a 2,048-px preview's pixels (several MB)
// alive, so only the photo on show's switches (two intents, gamut marks on and off) stay; an
// older one asked again comes from the worker's own cache in a few milliseconds.
const URLS_KEPT = 4;

const sourceKey = (source: Blob | string) => (typeof source === 'string' ? source : `blob:${source.size}:${source.type}`);

/** Keeps `made`, letting the oldest kept proofs past URLS_KEPT go (a Map keeps insertion order). */
function keep(urls: Map<string, Shown>, made: Shown): void {
  // Again at the end: the proof on show is never the oldest.
  urls.delete(made.ask);
  urls.set(made.ask, made);
  for (const [ask, old] of urls) {
    if (urls.size <= URLS_KEPT) break;
    urls.delete(ask);
    URL.revokeObjectURL(old.url);
  }
}

/**
 * The proof of one photo on one paper as the switches ask (proof-settings.ts). The last answers are
 * kept as object URLs while the screen is open, so flipping a switch back shows it in the same frame.
 */
export function useSoftProof(subject: SoftProofSubject): SoftProofView {
  const { on, gamutWarning, intent } = useProofSettings();
  const { photo, source, paperName, profile } = subject;
  const active = on && profile !== null && source !== null;
  const ask = active ? [photo, sourceKey(source), profile.key, intent, gamutWarning].join('|') : null;
  const kept = useRef(new Map<string, Shown>());
  const [shown, setShown] = useState<Shown | null>(null);
  const [failed, setFailed] = useState<{ ask: string; error: string } | null>(null);

  useEffect(() => {
    if (!ask || !profile || source === null) return;
    const known = kept.current.get(ask);
    if (known) {
      keep(kept.current, known);
      setShown(known);
      return;
    }
    let live = true;
    Promise.all([bridge.load(), readPaperProfile(profile)])
      .then(([{ proofPhoto }, bytes]) => proofPhoto({ photo, source, paper: { key: profile.key, name: paperName, profile: bytes }, intent, gamutWarning }))
      .then(
        (answer: ProofAnswer) => {
          const made = { ask, url: URL.createObjectURL(answer.blob), outOfGamut: answer.outOfGamut };
          keep(kept.current, made);
          if (live) setShown(made);
        },
        (err: unknown) => live && setFailed({ ask, error: err instanceof Error ? err.message : String(err) }),
      );
    return () => {
      live = false;
    };
  }, [ask, photo, source, paperName, profile, intent, gamutWarning]);

  useEffect(() => {
    const urls = kept.current;
    return () => {
      for (const made of urls.values()) URL.revokeObjectURL(made.url);
      urls.clear();
    };
  }, []);

  if (!ask) return { image: null, state: 'off', outOfGamut: null, error: null };
  if (shown?.ask === ask) return { image: shown.url, state: 'shown', outOfGamut: shown.outOfGamut, error: null };
  if (failed?.ask === ask) return { image: null, state: 'failed', outOfGamut: null, error: failed.error };
  // While another intent or the gamut marks are worked out, the last proof of this photo on this
  // paper stays on show rather than the unproofed photo.
  const samePhotoAndPaper = shown && shown.ask.startsWith(`${photo}|${sourceKey(source as Blob | string)}|${profile?.key}|`);
  return { image: samePhotoAndPaper ? shown.url : null, state: 'working', outOfGamut: null, error: null };
}
