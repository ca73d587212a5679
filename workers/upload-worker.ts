/// <reference lib="webworker" />
/**
 * The upload worker's entry: it exposes the one API object of src/upload/worker/worker-api.ts
 * over Comlink. The page reaches it only through src/upload/page/upload-worker-bridge.ts.
 */
import { expose } from 'comlink';
import { uploadWorkerApi } from '../src/upload/worker/worker-api.ts';

expose(uploadWorkerApi);
