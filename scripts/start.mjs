/**
 * `npm start`: the lab server from its build (dist/ for the app, dist-server/ for the server),
 * run by plain node. Plain JavaScript, so it runs in a production install, which has no tsx.
 *
 * Where the dev packages are installed (`npm install`), it first builds whatever changed since
 * the last build (scripts/build-if-changed.ts). A production install (`npm ci --omit=dev`) cannot
 * build: it starts the build it was given, or refuses, saying how to make one.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_NODE_OPTIONS } from './server-node-options.mjs';

const SERVER = join('dist-server', 'main.js');
// The server serves the app from CLIENT_DIR (README.md#configure).
const CLIENT = join(process.env.CLIENT_DIR || 'dist', 'index.html');

const canBuild = existsSync(join('node_modules', '.bin', 'vite')) && existsSync(join('node_modules', '.bin', 'tsx'));
if (canBuild) {
  const built = spawnSync(join('node_modules', '.bin', 'tsx'), [join('scripts', 'build-if-changed.ts')], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
} else if (!existsSync(SERVER) || !existsSync(CLIENT)) {
  console.error(
    `There is no build to start (${existsSync(SERVER) ? CLIENT : SERVER} is missing), and this install cannot make one: it has no dev packages (npm ci --omit=dev).\n` +
      'Build where they are installed (npm ci && npm run build) and copy dist/ and dist-server/ here, or run npm install here and npm start again.',
  );
  process.exit(1);
}

// A child process, because the heap limit is set when node starts. Yours in NODE_OPTIONS come after, so they win.
const server = spawn(process.execPath, [SERVER], {
  stdio: 'inherit',
  env: { ...process.env, NODE_OPTIONS: `${SERVER_NODE_OPTIONS} ${process.env.NODE_OPTIONS ?? ''}`.trim() },
});
// The server shuts down cleanly on these (server/main.ts): pass them on and wait for it, however long it takes.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));
