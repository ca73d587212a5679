// The embedded database's thread starts here: a worker thread does not inherit the TypeScript
// loader of the thread that made it, so it registers its own before loading its entry.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
