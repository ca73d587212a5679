/**
 * The real lab server for the bench: server/main.ts run by Node with tsx, in a child process of
 * its own process group (so every process under it can be stopped), on loopback, over the bench's
 * own data directory, with the real built client.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { onCleanup } from './cleanup.ts';

const ROOT = join(import.meta.dirname, '..', '..');
export const CLIENT_DIR = join(ROOT, 'dist');
// What goes into the client build (the list vite.config.ts hashes into the build's version).
const CLIENT_INPUTS = ['src', 'workers', 'public', 'index.html', 'package-lock.json', 'vite.config.ts'];
// A first start creates the database, runs migrations, loads the catalogue and the job schema;
// on two busy cores that has taken over a minute.
const START_TIMEOUT_MS = 180_000;
// How often a starting server is asked whether it answers.
const START_POLL_MS = 50;
// A graceful stop closes PGlite (it flushes its files); after this the group is killed.
const STOP_TIMEOUT_MS = 15_000;

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Builds the client when dist/ is missing or older than any of its sources. */
export function ensureClientBuild(log: (line: string) => void): void {
  const marker = join(CLIENT_DIR, 'index.html');
  const sources = Math.max(...CLIENT_INPUTS.map((p) => join(ROOT, p)).filter(existsSync).map(newestMtime));
  if (existsSync(marker) && statSync(marker).mtimeMs >= sources) {
    log('client build: dist/ is up to date');
    return;
  }
  log(existsSync(marker) ? 'client build: dist/ is older than its sources, building' : 'client build: no dist/, building');
  const build = spawnSync(join(ROOT, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`vite build failed (exit ${build.status ?? build.signal})`);
}

export interface RunningServer {
  origin: string;
  /** The server's Node process (its memory is read from /proc). */
  pid: number;
  stop(): Promise<void>;
  /** kill -9, as a power cut or the kernel's out-of-memory killer ends it; resolves once it is gone. */
  crash(): Promise<void>;
}

// Servers still running, stopped hard if the bench itself dies.
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL');
});

/** Signals the whole process group, so nothing the server started outlives it. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * `env`: settings added to the bench's own (the scale part's DATABASE_URL). `command`: what runs
 * the server instead of server/main.ts under tsx (the start part's compiled server, `npm start`).
 */
export async function startServer(opts: { port: number; dataDir: string; env?: Record<string, string>; command?: string[] }): Promise<RunningServer> {
  const origin = `http://127.0.0.1:${opts.port}`;
  // Nothing may already answer on the port, or the bench would measure someone else's server.
  if (await portInUse(opts.port)) throw new Error(`port ${opts.port} is already in use`);
  // node --import tsx rather than the tsx command: one process, no relay that would SIGKILL a
  // server whose thread is busy when the stop signal comes (PGlite then could not close).
  // BENCH_NODE_OPTIONS: extra Node flags for the server only, e.g. --cpu-prof --cpu-prof-dir=/tmp/prof
  // to see where its time goes (the profile is written when the server stops).
  const nodeFlags = (process.env.BENCH_NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean);
  const [file, ...args] = opts.command ?? [process.execPath, ...nodeFlags, '--import', 'tsx', 'server/main.ts'];
  if (!file) throw new Error('startServer: an empty command');
  const child = spawn(file, args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Only what the server needs from the caller's environment: a DATABASE_URL, SMTP_URL or
    // Stripe key set in the shell must not send the bench to another database or a real service.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
      PORT: String(opts.port),
      HOST: '127.0.0.1',
      DATA_DIR: opts.dataDir,
      CLIENT_DIR,
      LOG_LEVEL: 'warn',
      // Every sign-in of the bench comes from 127.0.0.1; the limits have their own API tests.
      LOGIN_RATE_LIMIT: '100000',
      LOOKUP_RATE_LIMIT: '100000',
      BENCH_FLOOR: 'true',
      NODE_NO_WARNINGS: '1',
      ...opts.env,
    },
  });
  running.add(child);
  // Kept for the failure message; the server prints little at LOG_LEVEL=warn.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      resolve();
    }),
  );

  const stop = async () => {
    if (!running.has(child)) {
      killGroup(child, 'SIGKILL');
      return;
    }
    killGroup(child, 'SIGTERM');
    const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), STOP_TIMEOUT_MS).unref());
    if ((await Promise.race([exited, timer])) === 'timeout') {
      killGroup(child, 'SIGKILL');
      await exited;
    }
    // Nothing of the group may outlive the bench.
    killGroup(child, 'SIGKILL');
  };

  onCleanup(stop);

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await answers(`${origin}/api/v2/status`))) {
    if (!running.has(child)) throw new Error(`the server exited during start:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
    }
    // Often enough that the start part's figure is to within this.
    await new Promise((r) => setTimeout(r, START_POLL_MS));
  }
  const crash = async () => {
    killGroup(child, 'SIGKILL');
    await exited;
  };
  return { origin, pid: child.pid ?? 0, stop, crash };
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
