/** What the proof worker exposes over Comlink (workers/proof-worker.ts), as its bridge calls it. */
import type { ProofPhoto } from './proof-api.ts';

export interface ProofWorkerApi {
  proof: ProofPhoto;
}
