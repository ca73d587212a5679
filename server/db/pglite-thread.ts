import { Worker } from 'node:worker_threads';
import { messages, type PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { Database, Db } from './database.ts';
import type { ThreadAnswer, ThreadData, ThreadError, ThreadRequest, ThreadStart } from './pglite-thread-protocol.ts';
import * as schema from './schema.ts';

/**
 * The embedded database on a thread of its own. PGlite is PostgreSQL compiled to WebAssembly: it
 * runs on the thread that calls it, and on the API's thread every query's time was time no
 * request could use (over half of a signed-in read's CPU on the bench). Here it runs in a worker
 * thread and the API's thread only sends queries and reads answers, so a second core does the
 * database's work and a long query (an admin's list) no longer holds up every other request.
 *
 * The same Database as in-process (client.ts): Drizzle over a client with PGlite's `query` and
 * `transaction`. A transaction holds the database thread's lock from BEGIN to COMMIT as before:
 * other queries wait for it there.
 */

type Request = ThreadRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

function toError(error: ThreadError): Error {
  const err = error.database ? new messages.DatabaseError(error.message, 0, 'error') : new Error(error.message);
  return Object.assign(err, error.fields);
}

/**
 * The thread's first file, next to this one. Compiled (scripts/build-server.ts), this code is
 * JavaScript and the thread is its compiled pglite-worker.js; from the TypeScript sources (tsx,
 * vitest) a boot file registers the TypeScript loader, which a worker thread does not inherit.
 */
function threadFile(): string {
  return import.meta.url.endsWith('.ts') ? './pglite-worker-boot.mjs' : './pglite-worker.js';
}

/**
 * `onFailure`: the database thread stopped while in use (PostgreSQL aborted, out of memory).
 * Every call fails from then on, so the server should stop and be restarted, as it would have
 * with the database on its own thread.
 */
export async function openPgliteThread(opts: { dataDir?: string; loadDataDir?: Blob; onFailure?: (err: Error) => void }): Promise<Database> {
  const workerData: ThreadData = { entry: new URL('./pglite-worker.ts', import.meta.url).href, dataDir: opts.dataDir, loadDataDir: opts.loadDataDir };
  const worker = new Worker(new URL(threadFile(), import.meta.url), { workerData });
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (err: Error) => void }>();
  let lastId = 0;
  let failure: Error | null = null;
  let closing = false;

  const failAll = (err: Error) => {
    const first = !failure;
    failure ??= err;
    for (const waiting of pending.values()) waiting.reject(err);
    pending.clear();
    if (first && !closing) opts.onFailure?.(err);
  };
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the database thread ended (exit code ${code})`)));

  await new Promise<void>((resolve, reject) => {
    worker.once('message', (start: ThreadStart) => (start.started ? resolve() : reject(toError(start.error))));
    worker.once('error', reject);
  });
  worker.on('message', (answer: ThreadAnswer) => {
    const waiting = pending.get(answer.id);
    if (!waiting) return;
    pending.delete(answer.id);
    if (answer.ok) waiting.resolve(answer.result);
    else waiting.reject(toError(answer.error));
  });

  const call = <T>(request: Request): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (failure) return reject(failure);
      const id = ++lastId;
      pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a Node worker's postMessage has no origin
      worker.postMessage({ ...request, id });
    });

  // Drizzle's per-query parsers stay behind: the database thread has them set (pglite-drizzle-client.ts).
  const query = <T>(text: string, params: unknown[] = [], options?: QueryOptions) =>
    call<Results<T>>({ op: 'query', text, params, rowMode: options?.rowMode });
  const inTransaction = (tx: number) => ({
    query: <T>(text: string, params: unknown[] = [], options?: QueryOptions) =>
      call<Results<T>>({ op: 'txQuery', tx, text, params, rowMode: options?.rowMode }),
  });
  const client = {
    query,
    async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
      const tx = await call<number>({ op: 'begin' });
      let result: T;
      try {
        result = await fn(inTransaction(tx) as unknown as Transaction);
      } catch (err) {
        await call({ op: 'rollback', tx });
        throw err;
      }
      await call({ op: 'commit', tx });
      return result;
    },
  };

  return {
    // Drizzle's type names PGlite; at run time it calls only query and transaction.
    db: drizzlePglite({ client: client as unknown as PGlite, schema }) as unknown as Db,
    kind: 'pglite',
    executeSql: (text, values = []) => call<{ rows: unknown[] }>({ op: 'own', text, params: values }),
    // One process's own database: nobody else can run at the same time.
    exclusive: (fn) => fn(),
    close: async () => {
      if (!failure) await call({ op: 'close' });
      closing = true;
      await worker.terminate();
    },
  };
}
