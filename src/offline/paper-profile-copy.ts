import type { PaperIccProfile } from '../contract/catalogue.ts';
import { CACHE_NAMES } from './cache-names.ts';

/**
 * The papers' ICC profiles on this device, for the soft proof offline (issue 35). A profile's URL
 * names its bytes (the key is their SHA-256), so a copy never goes stale: it is fetched once, kept
 * in Cache Storage, and read from there ever after. A paper's profile is kept as soon as the paper
 * is chosen online, so a proof works offline even if none was asked for before.
 */

/** This page's reads, by key: a profile is fetched or read from the cache once per page. */
const reads = new Map<string, Promise<ArrayBuffer>>();

const openCache = () => (typeof caches === 'undefined' ? Promise.resolve(null) : caches.open(CACHE_NAMES.paperProfiles));

async function fetchOrCached(profile: PaperIccProfile): Promise<ArrayBuffer> {
  const cache = await openCache();
  const kept = await cache?.match(profile.url);
  if (kept) return kept.arrayBuffer();
  const answer = await fetch(profile.url);
  if (!answer.ok) throw new Error(`The ${profile.name} profile could not be fetched (${answer.status}).`);
  await cache?.put(profile.url, answer.clone());
  return answer.arrayBuffer();
}

/** The profile's bytes: from this device when kept, else from the lab (and then kept). */
export function readPaperProfile(profile: PaperIccProfile): Promise<ArrayBuffer> {
  let read = reads.get(profile.key);
  if (!read) {
    read = fetchOrCached(profile);
    reads.set(profile.key, read);
    // A failed read (offline, not kept yet) is tried again on the next ask.
    read.catch(() => reads.delete(profile.key));
  }
  return read;
}

/** Keeps a chosen paper's profile on the device in the background; a failure waits for the next choice. */
export function keepPaperProfile(profile: PaperIccProfile | null): void {
  if (!profile) return;
  readPaperProfile(profile).catch(() => {
    // Offline or failing: the proof asks again when it is turned on.
  });
}
