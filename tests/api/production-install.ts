import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { buildServer } from '../../scripts/build-server.ts';

const ROOT = resolve('.');

/** The packages `npm ci --omit=dev` installs: the folders under node_modules/ that npm counts as production ones. */
function productionPackages(): string[] {
  const out = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const top = join(ROOT, 'node_modules') + sep;
  // Only the top level: a package's own node_modules comes with it.
  return out
    .split('\n')
    .filter((path) => path.startsWith(top) && !path.slice(top.length).includes(`${sep}node_modules${sep}`))
    .map((path) => path.slice(top.length));
}

/**
 * A lab's production install in a temporary folder: package.json, the compiled server (built
 * from the sources now), scripts/ (npm start's and the commands'), a small built client, and a
 * node_modules of links to the production packages only (no tsx, no vite). Run node in it with
 * `--preserve-symlinks` (PRESERVE_LINKS), so a package finds its own dependencies in this
 * folder, as it would after `npm ci --omit=dev`, not in the repository's full node_modules.
 */
export async function productionInstall(opts: { client?: boolean } = {}): Promise<{ dir: string; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'lab-production-'));
  await buildServer(ROOT, join(dir, 'dist-server'));
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  cpSync(join(ROOT, 'scripts'), join(dir, 'scripts'), { recursive: true });
  for (const name of productionPackages()) {
    const link = join(dir, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', name), link);
  }
  if (opts.client !== false) {
    // The client build itself is the end-to-end tests' business; here, that the server serves one.
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'index.html'), '<!doctype html><title>Print lab</title><div id="root"></div>');
    writeFileSync(join(dir, 'dist', 'version.json'), JSON.stringify({ version: 'production-test' }));
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** NODE_OPTIONS for a process in a productionInstall folder (see there). */
export const PRESERVE_LINKS = '--preserve-symlinks --preserve-symlinks-main';
