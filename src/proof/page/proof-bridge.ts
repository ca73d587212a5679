/**
 * The one bridge to the proof worker: the only module that creates it or calls Comlink's wrap.
 * The worker (and LittleCMS's WebAssembly with it) starts on the first ask, never when a screen
 * imports this module, so a screen without a proof loads none of it.
 */
import { transfer, wrap, type Remote } from 'comlink';
import type { ProofPhoto } from '../shared/proof-api.ts';
import type { ProofWorkerApi } from '../shared/proof-worker-protocol.ts';

class ProofWorkerDied extends Error {
  constructor(detail: string) {
    super(`The proof worker stopped: ${detail}`);
    this.name = 'ProofWorkerDied';
  }
}

let remote: Remote<ProofWorkerApi> | null = null;
/** Rejects every pending ask when the worker dies, since Comlink would wait for ever. */
let died: Promise<never> | null = null;

function start(): { remote: Remote<ProofWorkerApi>; died: Promise<never> } {
  if (remote && died) return { remote, died };
  const w = new Worker(new URL('../../../workers/proof-worker.ts', import.meta.url), { type: 'module', name: 'proof-worker' });
  const dead = new Promise<never>((_, reject) => {
    w.addEventListener('error', (e) => reject(new ProofWorkerDied(e.message || 'it could not load')));
  });
  // The next ask starts a new worker.
  dead.catch(() => {
    w.terminate();
    if (died === dead) {
      remote = null;
      died = null;
    }
  });
  remote = wrap<ProofWorkerApi>(w);
  died = dead;
  return { remote, died };
}

/**
 * Proofs a preview on a paper. The paper's profile goes over as a copy handed to the worker
 * (transferred, not cloned twice), so the screen keeps its own bytes for the next ask.
 */
export const proofPhoto: ProofPhoto = (ask) => {
  const worker = start();
  const profile = ask.paper.profile.slice(0);
  const sent = worker.remote.proof(transfer({ ...ask, paper: { ...ask.paper, profile } }, [profile]));
  return Promise.race([sent, worker.died]);
};
