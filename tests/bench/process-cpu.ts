/**
 * CPU seconds spent by each process of a benchmark between two moments, read from Linux's
 * /proc/<pid>/stat (user + system time of the process and its threads). On 2 shared cores a
 * throughput figure measures the CPU the pipeline costs per byte as much as anything: this says
 * which process spent it (the lab server, the bench's own proxy, Chromium's browser process where
 * IndexedDB and the network live, the page's renderer with its workers). Empty off Linux.
 */
import { readFileSync, readdirSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

interface Proc {
  ppid: number;
  ticks: number;
  label: string;
  threads?: Map<string, number>;
}

function threadTicks(pid: number, server: boolean): Map<string, number> {
  const byKind = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const kind = !server ? comm : tid === String(pid) ? 'main thread' : comm.startsWith('libvips') ? 'libvips' : 'other threads';
      byKind.set(kind, (byKind.get(kind) ?? 0) + Number(fields[11]) + Number(fields[12]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return byKind;
}

function readProc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: the fields follow the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    const ticks = Number(fields[11]) + Number(fields[12]);
    let cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    // Chromium rewrites its command line into one string with spaces.
    if (cmd.length === 1) cmd = (cmd[0] ?? '').split(' ');
    const label = labelOf(cmd);
    // The lab server by thread: its main thread (HTTP, the parts' MD5, SHA-256 and JPEG walk),
    // sharp's libvips workers (the preview job), the rest (libuv's pool, the database's thread, GC).
    // Chromium's renderer and browser process by thread name (the page's main thread is
    // CrRendererMain, the upload worker a DedicatedWorker thread).
    const threads = label === 'lab server' || label === 'chromium renderer' || label === 'chromium browser' ? threadTicks(pid, label === 'lab server') : undefined;
    return { ppid, ticks, label, ...(threads ? { threads } : {}) };
  } catch {
    return null;
  }
}

function labelOf(cmd: string[]): string {
  const type = cmd.find((a) => a.startsWith('--type='))?.slice('--type='.length);
  const sub = cmd.find((a) => a.startsWith('--utility-sub-type='))?.split('.').pop();
  if (cmd[0]?.includes('chrom')) return `chromium ${type ? (sub ?? type) : 'browser'}`;
  if (cmd.includes('server/main.ts')) return 'lab server';
  return cmd.slice(0, 3).join(' ').slice(0, 60);
}

/** Every process under `root` (itself included) with its CPU ticks so far. */
export function cpuSnapshot(root = process.pid): Map<number, Proc> {
  const all = new Map<number, Proc>();
  let pids: number[] = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
  } catch {
    return all;
  }
  for (const pid of pids) {
    const p = readProc(pid);
    if (p) all.set(pid, p);
  }
  const mine = new Map<number, Proc>();
  const under = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p && hops < 20; p = all.get(p)?.ppid, hops++) if (p === root) return true;
    return false;
  };
  for (const [pid, p] of all) if (under(pid)) mine.set(pid, p);
  return mine;
}

/** CPU seconds by label between two snapshots, largest first, as one line. */
export function cpuBetween(before: Map<number, Proc>, after: Map<number, Proc>, wallSeconds: number): string {
  const byLabel = new Map<string, number>();
  const threads = new Map<string, Map<string, number>>();
  for (const [pid, p] of after) {
    const was = before.get(pid);
    const spent = (p.ticks - (was?.ticks ?? 0)) / TICKS_PER_SECOND;
    byLabel.set(p.label, (byLabel.get(p.label) ?? 0) + spent);
    const mine = threads.get(p.label) ?? new Map<string, number>();
    threads.set(p.label, mine);
    // Threads that ended between the two snapshots are not counted here (the process total has them).
    for (const [kind, ticks] of p.threads ?? []) mine.set(kind, (mine.get(kind) ?? 0) + (ticks - (was?.threads?.get(kind) ?? 0)) / TICKS_PER_SECOND);
  }
  const byThread = [...threads]
    .filter(([, m]) => m.size)
    .map(([label, m]) => `${label}: ${[...m].filter(([, s]) => s >= 0.1).sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, s]) => `${k} ${s.toFixed(1)}`).join(', ')}`);
  const total = [...byLabel.values()].reduce((a, b) => a + b, 0);
  const parts = [...byLabel].filter(([, s]) => s >= 0.05).sort((a, b) => b[1] - a[1]);
  return `CPU seconds in ${wallSeconds.toFixed(1)} s: ${total.toFixed(1)} in all; ${parts.map(([l, s]) => `${l} ${s.toFixed(1)}`).join(', ')}${byThread.length ? ` (${byThread.join('; ')})` : ''}`;
}

/**
 * CPU seconds between two snapshots, summed over the processes whose label `which` accepts (all
 * by default): the bench's CPU per GB, in all and Chromium's alone.
 */
export function cpuSeconds(before: Map<number, Proc>, after: Map<number, Proc>, which: (label: string) => boolean = () => true): number {
  let ticks = 0;
  for (const [pid, p] of after) if (which(p.label)) ticks += p.ticks - (before.get(pid)?.ticks ?? 0);
  return ticks / TICKS_PER_SECOND;
}
