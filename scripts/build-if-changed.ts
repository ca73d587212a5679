/**
 * `npm start`'s first step: builds the app only when its inputs changed since the last build
 * (the version hash of scripts/build-version.ts against dist/version.json), so a restart does not
 * spend several seconds rebuilding the same files. `npm run build` always builds.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildVersion } from './build-version.ts';

// Where vite.config.ts writes the build (the server's default CLIENT_DIR).
const OUT_DIR = 'dist';

function builtVersion(): string | null {
  try {
    if (!existsSync(join(OUT_DIR, 'index.html'))) return null;
    const parsed = JSON.parse(readFileSync(join(OUT_DIR, 'version.json'), 'utf8')) as { version?: unknown };
    return typeof parsed.version === 'string' ? parsed.version : null;
  } catch {
    return null;
  }
}

const wanted = buildVersion();
const built = builtVersion();
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
