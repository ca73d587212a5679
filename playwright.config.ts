import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/e2e/browser.ts';

// The real server, built client and all, on its own port and a fresh data directory per run.
const PORT = Number(process.env.E2E_PORT ?? 4317);
// Where the lab sends SEND TO VENDOR: a receiver the vendor spec starts itself (admin-vendor-send.spec.ts).
process.env.E2E_VENDOR_PORT ??= String(PORT + 100);
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'lab-e2e-'));
// Where the test SMTP server drops every mail (see tests/e2e/serve.ts).
process.env.E2E_MAIL_DIR ??= mkdtempSync(join(tmpdir(), 'lab-e2e-mail-'));

// Two cores: the server and one browser per worker.
const WORKERS = 2;
// The limits only end a test that is stuck: tests wait for conditions, never for time. They are
// fixed and generous, so the same suite passes on CI and on a machine shared by several runs
// (--workers=4 on 2 cores), where every step takes longer alike.
const TEST_MS = 120_000;
const EXPECT_MS = 20_000;
// A first start creates the database, loads the catalogue and the job schema.
const SERVER_START_MS = 240_000;

export default defineConfig({
  testDir: './tests/e2e',
  testMatch: /.*\.spec\.ts/,
  fullyParallel: true,
  workers: WORKERS,
  retries: 0,
  timeout: TEST_MS,
  expect: { timeout: EXPECT_MS },
  reporter: [['list']],
  outputDir: 'test-results',
  webServer: {
    command: 'node_modules/.bin/tsx tests/e2e/serve.ts',
    url: `http://127.0.0.1:${PORT}/api/v2/status`,
    reuseExistingServer: false,
    timeout: SERVER_START_MS,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      E2E_MAIL_DIR: process.env.E2E_MAIL_DIR,
      LOG_LEVEL: 'warn',
      // Every test signs in from 127.0.0.1; the limit itself has its API test.
      LOGIN_RATE_LIMIT: '1000',
      LOOKUP_RATE_LIMIT: '1000',
      NODE_NO_WARNINGS: '1',
      VENDOR_API_URL: `http://127.0.0.1:${process.env.E2E_VENDOR_PORT}/orders`,
    },
  },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    serviceWorkers: 'allow',
    // A failed test keeps its trace: every action with the page's DOM before and after. Without
    // the screencast (screenshots), which cost a large share of the accessibility sweep's time
    // (docs/performance-notes.md §9); a failure still saves its screenshot below.
    // Under CI (CI=true) no trace is recorded: that run's clone is thrown away with its results,
    // so nobody could open one, and recording the DOM costs part of the sweep's time.
    trace: process.env.CI ? 'off' : { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'debian-chromium', use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } } }],
});
