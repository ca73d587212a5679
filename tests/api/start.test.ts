import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cmykPrinterProfile, srgbDisplayProfile } from './paper-profile-files.ts';
import { freePort, scratchPostgres, startServer as start } from './server-process.ts';

const loginAt = (port: number, email: string, password: string) =>
  fetch(`http://127.0.0.1:${port}/api/v2/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('starting the server', () => {
  it('a bad configuration value stops the start with one line naming the variable', async () => {
    const s = start({ PORT: 'eighty', DATA_DIR: '/nonexistent' });
    expect(await s.exited).toBe(1);
    expect(s.err().trim()).toBe('Invalid configuration: PORT must be a whole number from 1 to 65535 (got "eighty")');
  });

  it('starts on PGlite under DATA_DIR, creates the demo admin once, and keeps data across restarts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lab-start-'));
    dirs.push(dataDir);
    const port = await freePort();
    const first = start({ DATA_DIR: dataDir, PORT: String(port) });
    await first.ready();
    expect(first.out()).toContain(`Creating the embedded database in ${join(dataDir, 'db')} (first start, a few seconds)…`);
    expect(first.out()).toContain('Created the demo admin: admin@example.com / admin-password');
    expect(first.out()).toContain('(database: pglite)');
    const status = await fetch(`http://127.0.0.1:${port}/api/v2/status`);
    expect(status.status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = start({ DATA_DIR: dataDir, PORT: String(port) });
    await second.ready();
    expect(second.out()).not.toContain('Created the demo admin');
    expect(second.out()).not.toContain('Creating the embedded database');
    const login = await loginAt(port, 'admin@example.com', 'admin-password');
    expect(login.status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 150_000);

  it('in production without SMTP says mail is not delivered, and never prints a reset code', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lab-start-'));
    dirs.push(dataDir);
    const port = await freePort();
    const s = start({ DATA_DIR: dataDir, PORT: String(port), NODE_ENV: 'production', LOG_LEVEL: 'info' });
    await s.ready();
    // Standard error is a pipe of its own: its lines may come after the running line of standard output.
    await expect.poll(() => s.err()).toContain('WARNING: mail is NOT being delivered (SMTP_URL is not set)');
    const asked = await fetch(`http://127.0.0.1:${port}/api/v2/forgot_password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com' }),
    });
    expect(asked.status).toBe(200);
    await expect.poll(() => s.out()).toContain('Mail to admin@example.com queued, not delivered (SMTP_URL is not set): Your password reset token');
    expect(s.out()).not.toContain('reset token is');
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  }, 150_000);

  it.runIf(process.env.API_TEST_DATABASE === 'postgres')('starts on PostgreSQL when DATABASE_URL is set', async () => {
    const database = await scratchPostgres('lab_start');
    try {
      const port = await freePort();
      const s = start({ DATABASE_URL: database.url, DATA_DIR: '/nonexistent', PORT: String(port), ADMIN_EMAIL: 'owner@lab.example', ADMIN_PASSWORD: 'owner-password' });
      await s.ready();
      expect(s.out()).toContain('(database: postgres)');
      const login = await loginAt(port, 'owner@lab.example', 'owner-password');
      expect(login.status).toBe(200);
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
    } finally {
      await database.drop();
    }
  }, 150_000);
});

describe('the catalogue command', () => {
  it('writes the default as a template, and loads a file into the lab database', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lab-cli-'));
    dirs.push(dataDir);
    const run = (args: string[]) => {
      const r = spawnSync('node_modules/.bin/tsx', ['server/cli/catalogue.ts', ...args], {
        env: { ...process.env, DATA_DIR: dataDir, NODE_NO_WARNINGS: '1' },
        encoding: 'utf8',
      });
      return { code: r.status, out: r.stdout, err: r.stderr };
    };
    const template = run(['default']);
    expect(template.code).toBe(0);
    const parsed = JSON.parse(template.out) as { papers: { name: string }[] };
    expect(parsed.papers.map((p) => p.name)).toContain('Canvas - Gallery Wrap');

    const file = join(dataDir, 'prices.json');
    // A paper's ICC profile, named relative to the catalogue file (issue 35).
    writeFileSync(join(dataDir, 'lustre.icc'), await cmykPrinterProfile());
    const lustre = { name: 'Lustre', icc_profile: 'lustre.icc', print_sizes: [{ name: '8x10', x_aspect: 8, y_aspect: 10, price: '3.25' }] };
    writeFileSync(file, JSON.stringify({ name: 'Lab 2027', papers: [lustre] }));
    const loaded = run(['load', file]);
    expect(loaded.code).toBe(0);
    expect(loaded.out).toContain('Loaded "Lab 2027": 1 papers, 1 print sizes, 0 finishing services, 1 ICC profiles');

    writeFileSync(file, JSON.stringify({ name: 'Screen', papers: [{ ...lustre, icc_profile: 'screen.icc' }] }));
    writeFileSync(join(dataDir, 'screen.icc'), await srgbDisplayProfile());
    const screen = run(['load', file]);
    expect(screen.code).toBe(1);
    expect(screen.err).toContain('Lustre: screen.icc: This is not a printer (output) profile');

    writeFileSync(file, JSON.stringify({ name: 'Broken', papers: [] }));
    const broken = run(['load', file]);
    expect(broken.code).toBe(1);
    expect(broken.err).toContain('The catalogue file is not valid');
  }, 150_000);
});
