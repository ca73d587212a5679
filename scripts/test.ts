/**
 * `npm test`: every check in one command on a fresh machine. Type-check, lint, unit tests, API
 * tests on PGlite (and on PostgreSQL when TEST_DATABASE_URL is set), the build (app and server),
 * and the end-to-end tests in Debian's Chromium against the real server (and, when
 * TEST_DATABASE_URL is set, the scale-out journey: tests/e2e/scale-out.spec.ts). Ends with one line
 * 'tests: N passed, N failed' and a non-zero exit when anything failed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const reports = '.test-reports';
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const env = { ...process.env, NODE_NO_WARNINGS: '1' };
const failedSteps: string[] = [];
let passed = 0;
let failed = 0;
let skipped = 0;

function run(step: string, command: string, extraEnv: Record<string, string> = {}): boolean {
  console.log(`\n=== ${step}: ${command}`);
  const started = Date.now();
  const result = spawnSync(command, { shell: true, stdio: 'inherit', env: { ...env, ...extraEnv } });
  const ok = result.status === 0;
  console.log(`=== ${step}: ${ok ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (!ok) failedSteps.push(step);
  return ok;
}

function countVitest(file: string): void {
  if (!existsSync(file)) return;
  const r = JSON.parse(readFileSync(file, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + r.numTodoTests;
}

function countPlaywright(file: string): void {
  if (!existsSync(file)) return;
  const r = JSON.parse(readFileSync(file, 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };
  passed += r.stats.expected;
  failed += r.stats.unexpected + r.stats.flaky;
  skipped += r.stats.skipped;
}

const vitest = (project: string, out: string) =>
  `node_modules/.bin/vitest run --project ${project} --reporter=default --reporter=json --outputFile.json=${join(reports, out)}`;

run('typecheck', 'npm run --silent typecheck');
run('lint', 'npm run --silent lint');

run('unit tests', vitest('unit', 'unit.json'));
countVitest(join(reports, 'unit.json'));

// Issue 9's log-hygiene guard: the whole API suite runs with the app's real logger at trace level,
// every line captured, and each test app's log is checked for secrets when it closes
// (tests/api/helper.ts), so a route added later that logs a token or a hash fails here.
run('API tests on PGlite', vitest('api', 'api-pglite.json'), { API_TEST_DATABASE: 'pglite', API_TEST_CAPTURE_LOGS: '1' });
countVitest(join(reports, 'api-pglite.json'));

if (process.env.TEST_DATABASE_URL) {
  run('API tests on PostgreSQL', vitest('api', 'api-postgres.json'), { API_TEST_DATABASE: 'postgres' });
  countVitest(join(reports, 'api-postgres.json'));
} else {
  console.log('\n=== API tests on PostgreSQL: skipped (set TEST_DATABASE_URL to run them; .ci/run does)');
  console.log('=== the scale-out journey (end-to-end) will be skipped for the same reason');
}

// The whole build, as a lab makes it; the end-to-end server itself runs the sources (tests/e2e/serve.ts).
if (run('build', 'node_modules/.bin/vite build --logLevel warn && node_modules/.bin/tsx scripts/build-server.ts') && run('Chromium', 'bash scripts/ensure-chromium.sh')) {
  const out = join(reports, 'e2e.json');
  // TEST_DATABASE_URL goes on with the rest of the environment: tests/e2e/scale-out.spec.ts makes
  // its own database on that server for its two API processes.
  run('end-to-end tests', 'node_modules/.bin/playwright test --reporter=list,json', {
    PLAYWRIGHT_JSON_OUTPUT_FILE: out,
    PLAYWRIGHT_JSON_OUTPUT_NAME: out,
  });
  countPlaywright(out);
}

console.log(failedSteps.length ? `\nFailed steps: ${failedSteps.join(', ')}` : '\nAll steps passed.');
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failedSteps.length || failed ? 1 : 0);
