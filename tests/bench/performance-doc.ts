/**
 * docs/performance.md is written by the bench, never by hand: each run replaces the sections of
 * the areas it measured (with the date, the commit and the machine's load) and keeps the others
 * as their own last run left them. Figures therefore live in one file, each with where it came from.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { formatTable, type Row } from './report.ts';

const DOC = join(import.meta.dirname, '../../docs/performance.md');
const HEAD = `# Performance

Written by \`npm run bench\` and \`npm run bench:upload\`: do not edit by hand. Each section is the
last run of that part of the bench, with its date, commit and the machine's load average at its end.
Ratios compare us with a baseline measured in the same run; a MISS is a target not met on that run.
What was tried, what worked and why: [docs/performance-notes.md](performance-notes.md).
`;
// A section starts with this marker, so a later run finds and replaces exactly its own.
const MARK = '<!-- bench-section: ';

function commit(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim();
    return dirty ? `${sha} (with local changes)` : sha;
  } catch {
    return 'unknown';
  }
}

function readSections(): Map<string, string> {
  const sections = new Map<string, string>();
  if (!existsSync(DOC)) return sections;
  const parts = readFileSync(DOC, 'utf8').split(MARK).slice(1);
  for (const part of parts) {
    const end = part.indexOf(' -->');
    if (end > 0) sections.set(part.slice(0, end), `${MARK}${part}`.trimEnd());
  }
  return sections;
}

/**
 * Replaces the sections of these rows' areas (one section per area) in docs/performance.md.
 * `command` is what was run, so anyone can measure again; `notes` are printed under the table.
 */
export function writePerformanceDoc(rows: Row[], command: string, notes: string[] = []): void {
  if (!rows.length) return;
  const sections = readSections();
  const when = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const load = loadavg()
    .map((n) => n.toFixed(1))
    .join(' / ');
  // Map.groupBy is Node 21's; this machine runs Node 20.
  const byArea = new Map<string, Row[]>();
  for (const r of rows) byArea.set(r.area, [...(byArea.get(r.area) ?? []), r]);
  for (const [area, areaRows] of byArea) {
    const body = [
      `${MARK}${area} -->`,
      `## ${area}`,
      '',
      `\`${command}\` at ${when}, commit ${commit()}, ${cpus().length} cores, load average ${load} (1/5/15 min).`,
      '',
      formatTable(areaRows),
      ...(notes.length ? ['', ...notes.map((n) => `- ${n}`)] : []),
    ].join('\n');
    sections.set(area, body);
  }
  const ordered = [...sections.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, text]) => text);
  mkdirSync(dirname(DOC), { recursive: true });
  writeFileSync(DOC, `${HEAD}\n${ordered.join('\n\n')}\n`);
}
