import { createHash, type Hash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Everything that goes into the client build, besides the VITE_* environment. */
const CLIENT_INPUTS = ['src', 'workers', 'public', 'index.html', 'package-lock.json', 'vite.config.ts', 'scripts/build-version.ts'];
/** Everything that goes into the compiled server: its sources, the domain it shares, its packages. */
const SERVER_INPUTS = ['server', 'src/domain', 'package.json', 'package-lock.json', 'scripts/build-server.ts', 'scripts/build-version.ts'];
// Vite reads VITE_* variables from these files too (the ones that apply to a production build).
const ENV_FILES = ['.env', '.env.local', '.env.production', '.env.production.local'];

/**
 * The build's version: a hash of everything that goes into the client (sources, build config,
 * and the VITE_* settings baked into it), so the same inputs give the same version and any change
 * gives a new one. VITE_BUILD_ID overrides it. Running apps compare it with the server's
 * /client_version to know a new build is out; `npm start` compares it with the built one to skip
 * an unneeded build (scripts/build-if-changed.ts).
 */
export function buildVersion(root = '.', env: NodeJS.ProcessEnv = process.env): string {
  if (env.VITE_BUILD_ID) return env.VITE_BUILD_ID;
  const hash = hashOf(root, [...CLIENT_INPUTS, ...ENV_FILES]);
  for (const name of Object.keys(env).filter((n) => n.startsWith('VITE_')).sort()) hash.update(`${name}=${env[name] ?? ''}`);
  return hash.digest('hex').slice(0, 12);
}

/**
 * The compiled server's version, the same way: a hash of everything esbuild reads
 * (scripts/build-server.ts writes it to dist-server/version.json), so `npm start` rebuilds the
 * server only when its sources, its packages or the build itself changed.
 */
export function serverBuildVersion(root = '.'): string {
  return hashOf(root, SERVER_INPUTS).digest('hex').slice(0, 12);
}

function hashOf(root: string, paths: string[]): Hash {
  const hash = createHash('sha256');
  const walk = (path: string) => {
    if (statSync(join(root, path)).isDirectory()) for (const entry of readdirSync(join(root, path)).sort()) walk(join(path, entry));
    else hash.update(path).update(readFileSync(join(root, path)));
  };
  for (const path of paths) if (existsSync(join(root, path))) walk(path);
  return hash;
}
