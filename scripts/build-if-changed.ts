/**
 * `npm start`'s build step (scripts/start.mjs runs it where the dev packages are installed):
 * builds the app and the server only when their inputs changed since the last build (the version
 * hashes of scripts/build-version.ts against dist/version.json and dist-server/version.json), so
 * a restart does not spend several seconds rebuilding the same files. `npm run build` always
 * builds both.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildServer, SERVER_OUT_DIR } from './build-server.ts';
import { buildVersion, serverBuildVersion } from './build-version.ts';

// Where vite.config.ts writes the build (the server's default CLIENT_DIR).
const CLIENT_OUT_DIR = 'dist';

/** The version a build recorded, or null when there is no complete build in `dir`. */
function builtVersion(dir: string, mainFile: string): string | null {
  try {
    if (!existsSync(join(dir, mainFile))) return null;
    const parsed = JSON.parse(readFileSync(join(dir, 'version.json'), 'utf8')) as { version?: unknown };
    return typeof parsed.version === 'string' ? parsed.version : null;
  } catch {
    return null;
  }
}

const wanted = buildVersion();
const built = builtVersion(CLIENT_OUT_DIR, 'index.html');
if (built === wanted) {
  console.info(`The app build is up to date (version ${wanted}).`);
} else {
  console.info(built ? 'The app changed since the last build: building it…' : 'Building the app (first start)…');
  const result = spawnSync(join('node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('The app could not be built (see above).');
    process.exit(result.status ?? 1);
  }
}

const serverBuilt = builtVersion(SERVER_OUT_DIR, 'main.js');
if (serverBuilt !== serverBuildVersion()) {
  console.info(serverBuilt ? 'The server changed since the last build: compiling it…' : 'Compiling the server (first start)…');
  await buildServer().catch((err: unknown) => {
    console.error('The server could not be compiled:', err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
