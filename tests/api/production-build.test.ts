import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESERVE_LINKS, productionInstall } from './production-install.ts';
import { freePort, startServer } from './server-process.ts';

/**
 * The production shape (README.md#run-it): the compiled server, started with plain node by
 * `npm start` (scripts/start.mjs) in an install that holds only the production packages.
 */
const ADMIN = { email: 'admin@example.com', password: 'admin-password' };
const loginBody = JSON.stringify(ADMIN);

let install: Awaited<ReturnType<typeof productionInstall>>;
const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-production-data-'));
  dirs.push(dir);
  return dir;
};

/** `npm start` in the production install: its package.json's start script, without npm in between. */
const npmStart = (env: Record<string, string>) =>
  startServer({ CLIENT_DIR: './dist', NODE_OPTIONS: PRESERVE_LINKS, ...env }, { args: ['scripts/start.mjs'], cwd: install.dir });

const login = (port: number) =>
  fetch(`http://127.0.0.1:${port}/api/v2/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: loginBody });
const labOrders = (port: number, token: string) => fetch(`http://127.0.0.1:${port}/api/v2/lab_orders`, { headers: { token } });

/** Whether a new connection to the port is refused: the server has stopped listening. */
const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

// Its own embedded database whatever the pass: `npm test` runs it in the PGlite pass only.
describe.skipIf(process.env.API_TEST_DATABASE === 'postgres')('the production build (PGlite pass only)', () => {
  beforeAll(async () => {
    install = await productionInstall();
  }, 60_000);
  afterAll(() => {
    install?.remove();
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  it('starts with plain node from the production packages only: status, sign-in, the app page, the lab commands', async () => {
    const data = dataDir();
    const port = await freePort();
    const server = npmStart({ DATA_DIR: data, PORT: String(port) });
    await server.ready();
    expect(server.out()).not.toContain('Building');
    expect((await fetch(`http://127.0.0.1:${port}/api/v2/status`)).status).toBe(200);
    expect((await login(port)).status).toBe(200);
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Print lab</title>');
    expect(await server.stop()).toBe(0);

    // The lab's commands run from the compiled server too (the embedded database is the stopped server's).
    const command = (args: string[]) =>
      spawnSync(process.execPath, ['scripts/lab-command.mjs', ...args], {
        cwd: install.dir,
        env: { ...process.env, DATA_DIR: data, NODE_OPTIONS: PRESERVE_LINKS, NODE_NO_WARNINGS: '1' },
        encoding: 'utf8',
      });
    const template = command(['catalogue', 'default']);
    expect(template.status).toBe(0);
    const file = join(data, 'prices.json');
    writeFileSync(file, template.stdout);
    const loaded = command(['catalogue', 'load', file]);
    expect(loaded.stderr).toBe('');
    expect(loaded.status).toBe(0);
    expect(loaded.stdout).toContain('Loaded "');
  }, 120_000);

  it('refuses to start with a clear message where there is no build and nothing to build it with', () => {
    const bare = dataDir();
    cpSync(join(install.dir, 'scripts'), join(bare, 'scripts'), { recursive: true });
    const started = spawnSync(process.execPath, ['scripts/start.mjs'], { cwd: bare, encoding: 'utf8' });
    expect(started.status).toBe(1);
    expect(started.stderr).toContain('There is no build to start (dist-server/main.js is missing), and this install cannot make one');
  });

  it('on SIGTERM answers the request in flight in full, turns a new one away with the error body, exits 0 and keeps every answered write', async () => {
    const data = dataDir();
    const port = await freePort();
    // debug: the server logs a request when it arrives, so the test sees the sign-in in flight.
    const server = npmStart({ DATA_DIR: data, PORT: String(port), LOG_LEVEL: 'debug' });
    await server.ready();
    const before = (await (await login(port)).json()) as { token: string };

    // A sign-in (a write: it makes a session) whose body is still arriving when the signal comes.
    const socket = connect(port, '127.0.0.1');
    let raw = '';
    socket.on('data', (d: Buffer) => (raw += d.toString()));
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`POST /api/v2/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(loginBody)}\r\n\r\n${loginBody.slice(0, 10)}`);
    const loginsArrived = () => server.out().split('\n').filter((line) => line.includes('"url":"/api/v2/login"') && line.includes('incoming request')).length;
    await expect.poll(loginsArrived, { timeout: 20_000 }).toBe(2);

    server.child.kill('SIGTERM');
    // Fastify marks itself closing before it stops listening: once new connections are refused, it drains.
    await expect.poll(() => refused(port), { timeout: 20_000 }).toBe(true);
    // The rest of the sign-in's body, and a second request behind it on the same connection.
    socket.write(`${loginBody.slice(10)}GET /api/v2/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await ended;
    expect(await server.exited).toBe(0);

    const [first, second] = raw.split(/(?=HTTP\/1\.1 \d{3} )/);
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    const during = JSON.parse(first?.split('\r\n\r\n')[1] ?? '') as { token: string };
    expect(during.token).toEqual(expect.any(String));
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(JSON.parse(second?.split('\r\n\r\n')[1] ?? '')).toMatchObject({
      error: { status: 503, class_name: 'ServiceUnavailable', user_message: { message: 'The lab is restarting. Please try again in a moment.' } },
    });

    // Both sessions, the one made before the signal and the one answered during the drain, were kept.
    const again = npmStart({ DATA_DIR: data, PORT: String(port) });
    await again.ready();
    expect((await labOrders(port, before.token)).status).toBe(200);
    expect((await labOrders(port, during.token)).status).toBe(200);
    expect(await again.stop()).toBe(0);
  }, 120_000);
});
