/**
 * Memory of the server processes (Linux /proc): the peak resident set during a phase, read two
 * ways that must agree: polling VmRSS, and the kernel's own high-water mark VmHWM after resetting
 * it (clear_refs 5) at the phase's start, which no spike between two polls escapes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { API, API_PREFIX, routePath } from '../../src/domain/paths.ts';

// Polls a second: a spike shorter than this is still caught by VmHWM.
const POLL_MS = 100;

const MB = 1024 * 1024;
export const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`;

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export interface RssPeak {
  /** Highest VmRSS seen by polling. */
  polled: number;
  /** The kernel's peak since the phase began (VmHWM; the polled peak where it could not be reset). */
  peak: number;
  /** RSS when the phase began. */
  start: number;
}

/** Starts watching `pid`; stop() answers the phase's peak. */
export function watchRss(pid: number): { stop(): RssPeak } {
  let reset = true;
  try {
    // 5 resets the peak resident set size to the current one (Linux 4.0+; our own child).
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    reset = false;
  }
  const start = statusKb(pid, 'VmRSS') ?? 0;
  let polled = start;
  const timer = setInterval(() => {
    polled = Math.max(polled, statusKb(pid, 'VmRSS') ?? 0);
  }, POLL_MS);
  return {
    stop() {
      clearInterval(timer);
      polled = Math.max(polled, statusKb(pid, 'VmRSS') ?? 0);
      const hwm = reset ? (statusKb(pid, 'VmHWM') ?? 0) : 0;
      return { polled, peak: Math.max(polled, hwm), start };
    },
  };
}

// A zip of 1,000 photos is written at disk speed; on two shared cores allow several minutes.
const ZIP_TIMEOUT_MS = 10 * 60_000;
const ZIP_POLL_MS = 250;

/**
 * DOWNLOAD ALL of an order as the admin asks for it (create_zip_file, then the order until its
 * download link is there), with the RSS of every server process watched; answers the time and
 * the peak of the process that built it (the highest of them).
 */
export async function zipWithMemory(opts: { origin: string; adminToken: string; orderGuid: string; pids: number[] }): Promise<{ seconds: number; peaks: RssPeak[] }> {
  const headers = { accept: 'application/json', token: opts.adminToken };
  const watchers = opts.pids.map(watchRss);
  const started = performance.now();
  try {
    const ask = await fetch(`${opts.origin}${API_PREFIX}${routePath(API.createZipFile, { guid: opts.orderGuid })}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: '{}',
    });
    if (!ask.ok) throw new Error(`create_zip_file answered ${ask.status}: ${(await ask.text()).slice(0, 300)}`);
    const deadline = Date.now() + ZIP_TIMEOUT_MS;
    for (;;) {
      const res = await fetch(`${opts.origin}${API_PREFIX}${API.labOrders}?search=${opts.orderGuid}`, { headers });
      const list = (await res.json()) as { data?: { attributes: { download_all_link: string | null } }[] };
      if (list.data?.[0]?.attributes.download_all_link) break;
      if (Date.now() > deadline) throw new Error(`the zip was not ready within ${ZIP_TIMEOUT_MS / 60_000} minutes`);
      await new Promise((r) => setTimeout(r, ZIP_POLL_MS));
    }
    return { seconds: (performance.now() - started) / 1000, peaks: watchers.map((w) => w.stop()) };
  } finally {
    for (const w of watchers) w.stop();
  }
}
