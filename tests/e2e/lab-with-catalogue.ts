/**
 * A lab server of a spec's own, loaded with its own catalogue by `npm run catalogue:load`, as a
 * lab does: for what is the whole lab's (the order minimum, the papers' ICC profiles), so the
 * suite's e2e server is left alone.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { freePort, serverStarted } from './helpers.ts';

export interface OwnLab {
  base: string;
  /** What catalogue:load printed. */
  loaded: string;
  close(): void;
}

/**
 * Starts it: `files` are written beside the catalogue file first (profiles it names), by name.
 * Answers once the server answers.
 */
export async function labWithCatalogue(name: string, catalogue: object, files: Record<string, Uint8Array> = {}): Promise<OwnLab> {
  const dataDir = mkdtempSync(join(tmpdir(), `lab-e2e-${name}-`));
  for (const [file, bytes] of Object.entries(files)) writeFileSync(join(dataDir, file), bytes);
  const file = join(dataDir, 'prices.json');
  writeFileSync(file, JSON.stringify(catalogue));
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_NO_WARNINGS: '1' };
  const loaded = spawnSync(process.execPath, ['scripts/lab-command.mjs', 'catalogue', 'load', file], { env, encoding: 'utf8' });
  expect(loaded.status, loaded.stderr).toBe(0);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn('node_modules/.bin/tsx', ['server/main.ts'], { env: { ...env, PORT: String(port), HOST: '127.0.0.1', CLIENT_DIR: 'dist' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  server.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const close = () => {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  await serverStarted(base, () => stderr).catch((err: unknown) => {
    close();
    throw err;
  });
  return { base, loaded: loaded.stdout, close };
}
