/**
 * Tests wait for conditions, never for time (oxlint refuses page.waitForTimeout; this check the
 * sleeps oxlint cannot name): a promise resolved by a timer with a delay,
 * `new Promise((r) => setTimeout(r, 50))` and its spellings, and the timers/promises sleep.
 * The benchmarks (tests/bench) measure time and may wait for it. A fake that stands for
 * something slow by nature (a throttled uplink) marks the line before with `// sleep-allowed:`
 * and its reason.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
const ALLOWED = /\/\/ sleep-allowed: \S/;
// A promise's executor, and the name it gives its resolve function.
const EXECUTOR = /new Promise(?:<[^>]*>)?\(\s*(?:\(\s*([A-Za-z_$][\w$]*)[^)]*\)|([A-Za-z_$][\w$]*))\s*=>/g;
// How far after `new Promise(` a sleep's timer is looked for: one short executor.
const EXECUTOR_CHARS = 240;
const TIMERS_PROMISES = /from\s+['"](?:node:)?timers\/promises['"]/;

/** A timer in `body` that calls `resolve` after a delay other than 0 (a next-task yield is no sleep). */
function sleepIn(body: string, resolveName: string): boolean {
  const name = resolveName.replace(/\$/g, '\\$');
  const timer = new RegExp(`setTimeout\\(\\s*(?:${name}\\b|\\(\\)\\s*=>\\s*\\{?\\s*${name}\\([^)]*\\)\\s*\\}?)\\s*,\\s*([^)]+)\\)`);
  const m = timer.exec(body);
  return Boolean(m && m[1]?.trim() !== '0');
}

const lineOf = (text: string, at: number) => text.slice(0, at).split('\n').length;

const problems: string[] = [];
const dir = join(root, 'tests');
for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
  const file = join(dir, name);
  const shown = relative(root, file);
  if (!SOURCE.test(name) || shown.startsWith('tests/bench/')) continue;
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const allowed = (line: number) => ALLOWED.test(lines[line - 2] ?? '') || ALLOWED.test(lines[line - 1] ?? '');
  for (const m of text.matchAll(EXECUTOR)) {
    const resolveName = m[1] ?? m[2] ?? '';
    const line = lineOf(text, m.index);
    const next = text.indexOf('new Promise', m.index + 1);
    const body = text.slice(m.index, Math.min(m.index + EXECUTOR_CHARS, next < 0 ? text.length : next));
    if (sleepIn(body, resolveName) && !allowed(line)) {
      problems.push(`${shown}:${line}: a sleep: wait for the condition it stands for (expect.poll, vi.waitFor, an event), or use fake timers`);
    }
  }
  const sleeps = TIMERS_PROMISES.exec(text);
  if (sleeps) problems.push(`${shown}:${lineOf(text, sleeps.index)}: timers/promises in a test: wait for a condition, not for time`);
}

if (problems.length) {
  console.error(`Tests that wait for time:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log('No test waits for time.');
