/**
 * Every document the code and the docs cite is in the repo, with the section cited: `npm run lint`
 * fails on a `*.md` path in the code (comments and strings of src, server, workers, scripts, tests)
 * or a link in README.md and docs/ that names a missing file, and on a `§N` or `#anchor` the
 * target has no heading for. A `§N` is a heading numbered `N.` (`## 5. Field rules`); an anchor is
 * a heading's slug as GitHub makes it (`## 2. The error body` → `#2-the-error-body`).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const CODE_DIRS = ['src', 'server', 'workers', 'scripts', 'tests'];
const CODE_FILE = /\.(ts|tsx|mts|mjs|js|css|html)$/;
const ROOT_CODE = ['vite.config.ts', 'vitest.config.ts', 'playwright.config.ts', 'drizzle.config.ts'];

// A document's path (relative or from the repo's root), then what it cites in it: one or more
// sections (`§5`, `§2, §4`, `§2 and §6a`) or an anchor. A path inside a longer word (a URL, a
// package's file) does not start a reference, nor does a Markdown link's target that code writes
// into a document (relative to that document; its link text names the path from the root).
const CODE_REF = /(?<![\w@/.$*{}-]|\]\()((?:\.{1,2}\/)*(?:[\w-]+\/)*[\w.-]+\.md)\b((?:(?:,| and| or)? ?§\d+[a-z]?)+|#[\w-]+)?/g;
const SECTION = /§(\d+[a-z]?)/g;
// A Markdown link to a local file: [text](path#anchor).
const MD_LINK = /\[([^\]]*)\]\(([^)\s]+)\)/g;

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as dashes. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

export interface Targets {
  sections: Set<string>;
  anchors: Set<string>;
}

/** The sections (`5`, `6a`) and anchors a Markdown text offers. */
export function targetsOf(markdown: string): Targets {
  const sections = new Set<string>();
  const anchors = new Set<string>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    const heading = inFence ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const text = heading[1] ?? '';
    anchors.add(slug(text));
    const number = /^§?(\d+[a-z]?)\.?\s/.exec(text);
    if (number?.[1]) sections.add(number[1]);
  }
  return { sections, anchors };
}

/** What is missing of one reference: the file, or the sections and anchor it names. */
export function missing(target: Targets | null, cites: string | undefined): string[] {
  if (!target) return ['no such file'];
  if (!cites) return [];
  if (cites.startsWith('#')) return target.anchors.has(cites.slice(1)) ? [] : [`no heading for ${cites}`];
  return [...cites.matchAll(SECTION)].map((m) => m[1] ?? '').filter((n) => !target.sections.has(n)).map((n) => `no section §${n}`);
}

const cache = new Map<string, Targets | null>();
function targets(path: string): Targets | null {
  if (!cache.has(path)) cache.set(path, existsSync(path) && statSync(path).isFile() ? targetsOf(readFileSync(path, 'utf8')) : null);
  return cache.get(path) ?? null;
}

function walk(dir: string): string[] {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true, encoding: 'utf8' })
    .filter((f) => !f.split('/').includes('node_modules'))
    .map((f) => join(dir, f));
}

/** A code file's reference: a path starting with a dot is the file's own neighbour, any other is from the root. */
function resolveFromCode(file: string, path: string): string {
  return path.startsWith('.') ? resolve(root, dirname(file), path) : resolve(root, path);
}

function checkCode(file: string, problems: string[]): void {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  lines.forEach((line, i) => {
    for (const m of line.matchAll(CODE_REF)) {
      const path = m[1] ?? '';
      for (const why of missing(targets(resolveFromCode(file, path)), m[2])) problems.push(`${file}:${i + 1}: ${path}${m[2] ?? ''}: ${why}`);
    }
  });
}

function checkMarkdown(file: string, problems: string[]): void {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  lines.forEach((line, i) => {
    for (const m of line.matchAll(MD_LINK)) {
      const [text = '', href = ''] = [m[1], m[2]];
      if (/^[a-z]+:/i.test(href)) continue; // https:, mailto:
      const [path = '', anchor] = href.split('#');
      const target = path ? resolve(root, dirname(file), path) : join(root, file);
      if (!path.endsWith('.md') && path) {
        if (!existsSync(target)) problems.push(`${file}:${i + 1}: ${href}: no such file`);
        continue;
      }
      const cites = anchor ? `#${anchor}` : (text.match(/§\d+[a-z]?/g) ?? []).join(' ') || undefined;
      for (const why of missing(targets(target), cites)) problems.push(`${file}:${i + 1}: ${href}: ${why}`);
    }
    // Paths from the root written as text (`docs/api.md §5`), outside the links checked above.
    for (const m of line.replace(MD_LINK, '').matchAll(CODE_REF)) {
      const path = m[1] ?? '';
      if (!path.includes('/')) continue;
      for (const why of missing(targets(resolve(root, path)), m[2])) problems.push(`${file}:${i + 1}: ${path}${m[2] ?? ''}: ${why}`);
    }
  });
}

export function checkRepo(): string[] {
  const problems: string[] = [];
  const code = [...CODE_DIRS.flatMap(walk), ...ROOT_CODE].filter((f) => CODE_FILE.test(f) && existsSync(join(root, f)));
  for (const file of code) checkCode(file, problems);
  const markdown = ['README.md', ...walk('docs').filter((f) => f.endsWith('.md'))];
  for (const file of markdown) checkMarkdown(file, problems);
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = checkRepo();
  if (problems.length) {
    console.error(`Document references that point nowhere (${problems.length}):\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`Document references hold (${relative(process.cwd(), root) || '.'}).`);
}
