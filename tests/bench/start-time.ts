/**
 * `--only=start` (issue 32): from starting the lab to its first answer, on a warm data directory
 * (the database made by an earlier start): the compiled server alone (node dist-server/main.js, as
 * `npm start` runs it), `npm start` itself with its build up to date (its check that nothing
 * changed included), and server/main.ts under tsx for comparison. The median of a few starts each.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_NODE_OPTIONS } from '../../scripts/server-node-options.mjs';
import { onCleanup } from './cleanup.ts';
import { cpuSnapshot } from './process-cpu.ts';
import { type Row, ms, verdict } from './report.ts';
import { startServer } from './server-process.ts';
import { median } from './upload-bench-kit.ts';

const ROOT = join(import.meta.dirname, '..', '..');
// Starts of each kind: the median of three steadies a figure on shared cores.
const STARTS = 3;
const TARGET_SERVER_MS = 3_000;
const TARGET_NPM_START_MS = 5_000;
// Linux's clock ticks of /proc/<pid>/stat.
const TICKS_PER_SECOND = 100;

interface Kind {
  label: string;
  command: string[];
  target: number | null;
}

const KINDS: Kind[] = [
  { label: 'compiled server alone (node dist-server/main.js)', command: [process.execPath, ...SERVER_NODE_OPTIONS.split(' '), join('dist-server', 'main.js')], target: TARGET_SERVER_MS },
  { label: 'npm start (build up to date)', command: ['npm', 'start', '--silent'], target: TARGET_NPM_START_MS },
  { label: 'server/main.ts under tsx (for comparison)', command: [process.execPath, '--import', 'tsx', join('server', 'main.ts')], target: null },
];

/**
 * CPU seconds spent so far by a process and everything under it, the children it has waited for
 * included (`npm start`'s build check): on shared cores the wall time is mostly waiting for a
 * core, and this is the start's own cost.
 */
function cpuSecondsOfTree(root: number): number {
  let ticks = 0;
  for (const pid of cpuSnapshot(root).keys()) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime, stime, cutime, cstime.
      ticks += [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    } catch {
      // Ended meanwhile.
    }
  }
  return ticks / TICKS_PER_SECOND;
}

/** How long one start takes to its first answer of /api/v2/status, and the CPU it spent. */
async function timedStart(port: number, dataDir: string, command: string[]): Promise<{ ms: number; cpu: number }> {
  const from = performance.now();
  const server = await startServer({ port, dataDir, command });
  const took = performance.now() - from;
  const cpu = cpuSecondsOfTree(server.pid);
  await server.stop();
  return { ms: took, cpu };
}

export async function measureStart(opts: { port: number; log: (line: string) => void }): Promise<Row[]> {
  // What `npm start` does first: the build brought up to date, so every start below is warm.
  const built = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join('scripts', 'build-if-changed.ts')], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`the build failed (exit ${built.status ?? built.signal})`);
  const dataDir = mkdtempSync(join(tmpdir(), 'lab-bench-start-'));
  onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
  // The first start makes the database, the admin and the catalogue: not measured.
  const first = await timedStart(opts.port, dataDir, KINDS[0]?.command ?? []);
  opts.log(`start: the first start (a new data directory) answered after ${ms(first.ms)}`);
  const rows: Row[] = [];
  for (const kind of KINDS) {
    const starts: { ms: number; cpu: number }[] = [];
    for (let i = 0; i < STARTS; i++) starts.push(await timedStart(opts.port, dataDir, kind.command));
    const took = median(starts.map((s) => s.ms));
    const cpu = median(starts.map((s) => s.cpu));
    opts.log(`start: ${kind.label}: ${starts.map((s) => `${ms(s.ms)} (${s.cpu.toFixed(2)} CPU s)`).join(', ')}`);
    rows.push({
      area: 'start',
      figure: `${kind.label}, warm data directory, to the first answer (median of ${STARTS})`,
      value: ms(took),
      target: kind.target === null ? 'printed' : `<= ${kind.target / 1000} s`,
      result: kind.target === null ? 'PASS' : verdict(took <= kind.target),
    });
    rows.push({ area: 'start', figure: `${kind.label}: CPU seconds to the first answer (median of ${STARTS})`, value: `${cpu.toFixed(2)} s`, target: 'printed', result: 'PASS' });
  }
  return rows;
}
