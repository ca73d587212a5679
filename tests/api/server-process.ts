import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import pg from 'pg';

// How long a started server may take to say it is running (see ready below).
const READY_MS = 180_000;

// Node itself with tsx's loader, not the tsx command: that one relays SIGTERM with a 30 ms
// deadline and, on two busy cores, kills the server before it can shut down cleanly.
const FROM_SOURCES = { args: ['--import', 'tsx', 'server/main.ts'] };

/**
 * `npm start`'s server process, as a lab would run it: real port, real data directory. From the
 * TypeScript sources, or with `run` any other node command line (the compiled server, from `cwd`).
 */
export function startServer(env: Record<string, string>, run: { args: string[]; cwd?: string } = FROM_SOURCES) {
  const child = spawn(process.execPath, run.args, {
    cwd: run.cwd,
    env: { ...process.env, LOG_LEVEL: 'warn', NODE_NO_WARNINGS: '1', HOST: '127.0.0.1', CLIENT_DIR: '/nonexistent', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // A first start creates the database, loads the catalogue and the job schema: seconds alone,
  // minutes on a machine shared by several runs. The limit only ends a start that hangs.
  const ready = () =>
    new Promise<void>((resolve, reject) => {
      const running = () => stdout.includes('Print lab is running');
      const timer = setTimeout(() => reject(new Error(`server did not start: ${stdout}${stderr}`)), READY_MS);
      const done = (err?: Error) => {
        clearTimeout(timer);
        child.stdout.off('data', check);
        child.off('exit', ended);
        if (err) reject(err);
        else resolve();
      };
      const check = () => running() && done();
      const ended = () => done(new Error(`server exited: ${stderr}`));
      if (running()) return done();
      if (child.exitCode !== null) return ended();
      child.stdout.on('data', check);
      child.on('exit', ended);
    });
  /** Stops the process as a lab would (SIGTERM) and waits for it; resolves with its exit code. */
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    return exited;
  };
  return { child, exited, ready, stop, out: () => stdout, err: () => stderr };
}

export type ServerProcess = ReturnType<typeof startServer>;

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

/** A new, empty database on the PostgreSQL of TEST_DATABASE_URL, and the way to drop it. */
export async function scratchPostgres(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL ?? '';
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
