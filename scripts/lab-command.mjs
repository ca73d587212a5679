/**
 * The lab's commands (`npm run catalogue:load`, `discount:create`, `seed:orders`…): run as
 * `node scripts/lab-command.mjs <command> [arguments]`.
 *
 * Where the dev packages are installed, from the TypeScript sources through tsx, so a command
 * always runs the code as it is now; in a production install (no tsx), from the compiled server
 * (dist-server/<command>-cli.js, which `npm run build` writes).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = { catalogue: 'server/cli/catalogue.ts', discount: 'server/cli/discount.ts', 'seed-orders': 'server/cli/seed-orders.ts' };

const [command, ...args] = process.argv.slice(2);
const source = SOURCES[command];
if (!source) {
  console.error(`Usage: node scripts/lab-command.mjs ${Object.keys(SOURCES).join(' | ')} [arguments]`);
  process.exit(2);
}
const tsx = join('node_modules', '.bin', 'tsx');
const compiled = join('dist-server', `${command}-cli.js`);
let run;
if (existsSync(tsx)) run = spawnSync(tsx, [source, ...args], { stdio: 'inherit' });
else if (existsSync(compiled)) run = spawnSync(process.execPath, [compiled, ...args], { stdio: 'inherit' });
else {
  console.error(`${compiled} is missing and this install cannot build it (no dev packages): build with npm run build where they are installed.`);
  process.exit(1);
}
process.exit(run.status ?? 1);
