import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One test file per core in both projects: vitest's default (cores − 1) ran one file at a time
// on CI's 2 cores, and an API file waits on its database much of the time (PGlite on its own
// thread, or a PostgreSQL process), so two at once finish far sooner (docs/performance-notes.md §9).
const FILES_AT_ONCE = availableParallelism();

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          setupFiles: ['tests/unit/setup.ts'],
          maxWorkers: FILES_AT_ONCE,
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/api/global-setup.ts'],
          maxWorkers: FILES_AT_ONCE,
          // Each file still gets a fresh app over a fresh database (helper.ts); what a worker
          // keeps between its files is only the loaded server modules, which hold no state of a
          // lab (no module-level singletons, and these tests mock no module). Re-importing them
          // cost seconds of CPU a file (docs/performance-notes.md §9).
          isolate: false,
          // PGlite starts from the migrated snapshot in seconds on its own thread, far longer on
          // 2 loaded cores.
          hookTimeout: 60_000,
          testTimeout: 30_000,
        },
      },
    ],
  },
});
