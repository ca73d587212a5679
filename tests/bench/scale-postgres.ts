/**
 * The PostgreSQL of the scale part (npm run bench -- --only=scale): a scratch database on the
 * server of --database-url, dropped at the end, or, without one, a throwaway cluster of its own
 * (initdb into a temporary directory, started on loopback, stopped and removed at the end).
 */
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { onCleanup } from './cleanup.ts';

export interface BenchPostgres {
  /** The scratch database's URL: what the servers and the seed are given. */
  url: string;
  /** How it was obtained, as printed. */
  described: string;
  /** pg_stat_statements is loaded (own cluster with BENCH_PG_STATEMENTS=1). */
  statements: boolean;
  /** The own cluster's server log (its checkpoints are logged), null on --database-url. */
  log: string | null;
}

// Where Debian and Ubuntu install the server's programs (one directory per major version).
const PG_LIB = '/usr/lib/postgresql';
// PostgreSQL refuses to run as root; as root the bench runs the cluster as this system user.
const PG_USER = 'postgres';
// The processes the bench starts (two API processes, their pools and job workers, the seed) stay
// far under this; PostgreSQL's default of 100 is kept.
const MAX_CONNECTIONS = 100;

/** No PostgreSQL to start and none named: the scale part is skipped, the others still run. */
export class NoPostgres extends Error {}

function findBin(name: string): string {
  const onPath = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return onPath;
  const versions = existsSync(PG_LIB) ? readdirSync(PG_LIB).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const path = join(PG_LIB, v, 'bin', name);
    if (existsSync(path)) return path;
  }
  throw new NoPostgres(`${name} not found (install PostgreSQL, or pass --database-url=postgres://… of a server the bench may create a database on)`);
}

/** Runs a PostgreSQL program, as the postgres user when the bench runs as root. */
function runPg(bin: string, args: string[]): void {
  const asRoot = userInfo().uid === 0;
  const [cmd, argv] = asRoot ? ['runuser', ['-u', PG_USER, '--', bin, ...args]] : [bin, args];
  const result = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${cmd.split('/').pop()} ${bin.split('/').pop()} ${args[0] ?? ''} failed: ${result.error?.message ?? (result.stderr || result.stdout)}`);
}

async function ownCluster(port: number, statements: boolean, socket: boolean): Promise<{ url: string; log: string }> {
  const initdb = findBin('initdb');
  const pgCtl = join(initdb, '..', 'pg_ctl');
  const dir = mkdtempSync(join(tmpdir(), 'lab-bench-pg-'));
  const data = join(dir, 'data');
  if (userInfo().uid === 0) {
    const { uid, gid } = lookupUser(PG_USER);
    chownSync(dir, uid, gid);
  }
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  runPg(initdb, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = [
    // Otherwise PostgreSQL's defaults, as a lab runs it: every commit waits for the disk (about
    // 5 ms a commit on this shared machine's disk, so the writes of the load pay for it as a lab's do).
    // Its Unix socket in its own directory (-k), not the system's, where another cluster may be.
    `-c listen_addresses=127.0.0.1 -p ${port} -c max_connections=${MAX_CONNECTIONS} -k ${dir}`,
    statements ? '-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all' : '',
  ].join(' ');
  runPg(pgCtl, ['start', '-w', '-D', data, '-l', join(dir, 'log'), '-o', options]);
  onCleanup(() => runPg(pgCtl, ['stop', '-m', 'fast', '-D', data]));
  // BENCH_PG_SOCKET=1: the servers reach it over its Unix socket in `dir` instead of TCP loopback.
  const url = socket ? `postgres://postgres@localhost:${port}/postgres?host=${encodeURIComponent(dir)}` : `postgres://postgres@127.0.0.1:${port}/postgres`;
  return { url, log: join(dir, 'log') };
}

function lookupUser(name: string): { uid: number; gid: number } {
  const out = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`the bench runs as root and there is no ${name} user to run PostgreSQL as`);
  return { uid: Number(out.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** A fresh database for the run; dropped (and the own cluster stopped) by the bench's clean-up. */
export async function benchPostgres(opts: { databaseUrl: string | null; port: number }): Promise<BenchPostgres> {
  const statements = !opts.databaseUrl && process.env.BENCH_PG_STATEMENTS === '1';
  const socket = process.env.BENCH_PG_SOCKET === '1';
  const own = opts.databaseUrl ? null : await ownCluster(opts.port, statements, socket);
  const server = opts.databaseUrl ?? (own as { url: string }).url;
  // On a shared server the run's database is named after the one given (h_floor → h_floor_bench_…),
  // so it stays within the names its owner may create.
  const given = opts.databaseUrl ? new URL(opts.databaseUrl).pathname.slice(1).replace(/\W/g, '') : '';
  const name = `${given || 'lab'}_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  onCleanup(async () => {
    const c = new pg.Client({ connectionString: server });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });
  const url = new URL(server);
  url.pathname = `/${name}`;
  if (statements) {
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    await c.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await c.end();
  }
  const shown = new URL(url);
  shown.password = shown.password ? '***' : '';
  return {
    url: url.toString(),
    described: opts.databaseUrl ? `database ${name} on ${shown.host}` : `own throwaway cluster on ${socket ? 'its Unix socket' : `127.0.0.1:${opts.port}`}, database ${name}`,
    statements,
    log: own?.log ?? null,
  };
}
