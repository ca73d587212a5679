/// <reference lib="webworker" />
/**
 * The proof worker's entry: it exposes the one API object of src/proof/worker/proof-worker-api.ts
 * over Comlink. The page reaches it only through src/proof/page/proof-bridge.ts.
 */
import { expose } from 'comlink';
import { proofWorkerApi } from '../src/proof/worker/proof-worker-api.ts';

expose(proofWorkerApi());
