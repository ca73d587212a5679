/**
 * The embedded database's own thread (see pglite-thread.ts): PGlite, its migrations and the
 * prepared-statement path, answering the API thread's messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder } from './migrations-folder.ts';
import { installDrizzleParsers } from './pglite-drizzle-client.ts';
import { preparedStatements } from './pglite-statements.ts';
import { threadError, type ThreadAnswer, type ThreadData, type ThreadRequest, type ThreadStart } from './pglite-thread-protocol.ts';

type Outcome = 'commit' | 'rollback';
interface OpenTransaction {
  tx: Transaction;
  finish: (outcome: Outcome) => void;
  done: Promise<void>;
}

const port = parentPort;
if (!port) throw new Error('pglite-worker.ts runs as a worker thread (pglite-thread.ts starts it)');
const data = workerData as ThreadData;

async function start() {
  const client = data.loadDataDir ? await PGlite.create({ loadDataDir: data.loadDataDir }) : await PGlite.create(data.dataDir);
  const own = { parsers: installDrizzleParsers(client) };
  // Migrations take PGlite's own path: DDL once per start needs no prepared statements.
  await migrate(drizzle({ client }), { migrationsFolder });
  const query = preparedStatements(client);
  const transactions = new Map<number, OpenTransaction>();
  let lastTransaction = 0;

  const open = (id: number): OpenTransaction => {
    const t = transactions.get(id);
    if (!t) throw new Error(`no open transaction ${id}`);
    return t;
  };

  /** Starts a transaction that stays open, holding PGlite's lock, until commit or rollback. */
  async function begin(): Promise<number> {
    const id = ++lastTransaction;
    let finish: (outcome: Outcome) => void = () => {};
    const outcome = new Promise<Outcome>((resolve) => (finish = resolve));
    let started: () => void = () => {};
    const ready = new Promise<void>((resolve) => (started = resolve));
    const done = client.transaction(async (tx) => {
      transactions.set(id, { tx, finish, done: Promise.resolve() });
      started();
      if ((await outcome) === 'rollback') await tx.rollback();
    });
    // BEGIN failed: the callback never ran.
    await Promise.race([ready, done.then(() => Promise.reject(new Error('the transaction ended before it began')))]);
    open(id).done = done;
    return id;
  }

  async function end(id: number, outcome: Outcome): Promise<void> {
    const t = open(id);
    t.finish(outcome);
    try {
      await t.done;
    } finally {
      transactions.delete(id);
    }
  }

  async function handle(request: ThreadRequest): Promise<unknown> {
    switch (request.op) {
      case 'query':
        return query(request.text, request.params, { rowMode: request.rowMode });
      case 'own':
        return request.params.length
          ? { rows: (await client.query(request.text, request.params, own)).rows }
          : { rows: (await client.exec(request.text, own)).at(-1)?.rows ?? [] };
      case 'begin':
        return begin();
      case 'txQuery':
        return open(request.tx).tx.query(request.text, request.params, { rowMode: request.rowMode });
      case 'commit':
      case 'rollback':
        return end(request.tx, request.op);
      case 'close':
        await client.close();
        return null;
    }
  }

  port?.on('message', (request: ThreadRequest) => {
    handle(request).then(
      (result) => port.postMessage({ id: request.id, ok: true, result } satisfies ThreadAnswer),
      (err: unknown) => port.postMessage({ id: request.id, ok: false, error: threadError(err) } satisfies ThreadAnswer),
    );
  });
}

start().then(
  () => port.postMessage({ started: true } satisfies ThreadStart),
  (err: unknown) => port.postMessage({ started: false, error: threadError(err) } satisfies ThreadStart),
);
