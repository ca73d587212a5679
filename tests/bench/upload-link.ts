/**
 * The throttled-link mode of `npm run bench:upload` (issue 32): the storage proxy carries every
 * PUT over one shared link (SharedLink, tests/e2e/storage-proxy.ts) of 100 and 20 Mbit/s, as a
 * photographer's uplink does, and the same batch goes up by plain concurrent PUTs and by our
 * queue from its upload screen. On a link, not the CPU, setting the pace, ours should take the
 * link's time: the rows say how close it is, how soon the first PUT leaves after the photos are
 * chosen, whether the page's thread had long tasks, and the CPU both spent per GB.
 *
 * BENCH_UPLOAD_LINKS=100,20 picks the links in Mbit/s (`none` skips the mode), and
 * BENCH_UPLOAD_SKIP=unthrottled leaves only this mode;
 * BENCH_UPLOAD_LINK_FILES and BENCH_UPLOAD_LINK_MB the batch (default 40 photos of about 12 MB).
 */
import { loadavg } from 'node:os';
import type { Page } from 'playwright-core';
import { SharedLink, type StorageProxy } from '../e2e/storage-proxy.ts';
import { ms, verdict, type Row } from './report.ts';
import { cameraBatch, settle } from './upload-bench-kit.ts';
import { plainPuts, queueRun, type RunCpu } from './upload-runs.ts';

export const LINK_AREA = 'upload on a throttled link';
const LINK_FILES = Number(process.env.BENCH_UPLOAD_LINK_FILES ?? 40);
const LINK_MB = Number(process.env.BENCH_UPLOAD_LINK_MB ?? 12);
export const LINKS_MBIT = (process.env.BENCH_UPLOAD_LINKS ?? '100,20')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);

/** Issue 32's targets. */
const RATIO_MAX = 1.05;
const FIRST_PUT_MAX_MS = 300;
/** Long tasks count only on a machine this quiet: above it the page's thread waits for a core. */
const LOAD_MAX = 2;

const GB = 1e9;

export interface LinkBench {
  page: Page;
  proxy: StorageProxy;
  origin: string;
  token: string;
  dir: string;
}

const perGb = (cpu: RunCpu, bytes: number) => `${(cpu.all / (bytes / GB)).toFixed(1)} (Chromium ${(cpu.browser / (bytes / GB)).toFixed(1)})`;

/** Each link in turn: plain PUTs, then ours, the lab idle before each link. */
export async function linkRows(bench: LinkBench, links: readonly number[]): Promise<Row[]> {
  const { page, proxy, origin, token } = bench;
  const batch = await cameraBatch(bench.dir, LINK_FILES, LINK_MB);
  const what = `${LINK_FILES} × ${(batch.bytes / LINK_FILES / 1e6).toFixed(1)} MB`;
  console.log(`throttled link: ${what}, ${(batch.bytes / 1e6).toFixed(0)} MB in all`);
  const rows: Row[] = [];
  let lastOrder: string | null = null;
  for (const mbit of links) {
    // The last run's previews are made before this link's runs share the cores with them.
    if (lastOrder) await settle(origin, token, lastOrder);
    proxy.link = new SharedLink((mbit * 1e6) / 8);
    try {
      const plain = await plainPuts(page, origin, token, batch.paths);
      const loadBefore = loadavg()[0] ?? 0;
      const ours = await queueRun(page, proxy, origin, token, batch.paths, `link ${mbit} Mbit/s`, true);
      const load = Math.max(loadBefore, loadavg()[0] ?? 0);
      lastOrder = ours.order;
      const oursMs = ours.doneAt - ours.chosenAt;
      const ratio = oursMs / plain.ms;
      const firstPut = ours.sendingFrom - ours.chosenAt;
      const link = `${mbit} Mbit/s, ${what}`;
      rows.push(
        {
          area: LINK_AREA,
          figure: `${link}: ours ÷ plain PUTs, from choosing to the last photo confirmed`,
          // The link's own time beside them: plain PUTs far above it mean the machine, not the link, set the pace.
          value: `${ratio.toFixed(3)} (${(oursMs / 1000).toFixed(1)} s vs ${(plain.ms / 1000).toFixed(1)} s; the link alone ${((batch.bytes * 8) / (mbit * 1e6)).toFixed(1)} s)`,
          target: `<= ${RATIO_MAX}`,
          result: verdict(ratio <= RATIO_MAX),
        },
        { area: LINK_AREA, figure: `${link}: first PUT after choosing the files`, value: ms(firstPut), target: `<= ${FIRST_PUT_MAX_MS} ms`, result: verdict(firstPut <= FIRST_PUT_MAX_MS) },
        {
          area: LINK_AREA,
          figure: `${link}: main-thread tasks over 50 ms (Long Tasks API)`,
          value: `${ours.longTasks}${ours.longTasks ? `, longest ${ms(ours.longest)}` : ''} at load ${load.toFixed(1)}`,
          target: `none at load <= ${LOAD_MAX}`,
          // Above LOAD_MAX a long task may be the thread waiting for a core: still a MISS, with the load beside it.
          result: verdict(ours.longTasks === 0),
        },
        {
          area: LINK_AREA,
          figure: `${link}: CPU seconds per GB, every process (Chromium alone)`,
          value: `ours ${perGb(ours.cpu, batch.bytes)}, plain ${perGb(plain.cpu, batch.bytes)}`,
          target: 'printed',
          result: 'PASS',
        },
      );
    } finally {
      proxy.link = null;
    }
  }
  return rows;
}
