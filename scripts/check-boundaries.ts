/**
 * The layout is the architecture (docs/architecture.md §3); this check keeps it so:
 * - a feature never imports another feature;
 * - shared client code (api, domain, offline, ui) and workers never import features or the shell;
 * - domain code is pure: it imports only other domain code;
 * - the contract (src/contract) imports only itself and the domain;
 * - the server imports from src/ only the domain and the contract; the client never imports the server.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const SOURCE = /\.(ts|tsx)$/;
const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

function files(dir: string): string[] {
  const abs = join(root, dir);
  try {
    statSync(abs);
  } catch {
    return [];
  }
  return readdirSync(abs, { recursive: true, encoding: 'utf8' })
    .filter((f) => SOURCE.test(f))
    .map((f) => join(dir, f));
}

const area = (path: string): string => {
  const [top, second, third] = path.split('/');
  if (top === 'src' && second === 'features') return `feature:${third}`;
  if (top === 'src') return `src:${second}`;
  return top ?? '';
};

function violation(from: string, to: string): string | null {
  const a = area(from);
  const b = area(to);
  if (a.startsWith('feature:') && b.startsWith('feature:') && a !== b) return 'features never import each other';
  if (['src:api', 'src:contract', 'src:domain', 'src:offline', 'src:ui', 'workers'].includes(a) && (b.startsWith('feature:') || b === 'src:app')) {
    return 'shared code never imports features or the app shell';
  }
  if (a === 'src:domain' && b !== 'src:domain') return 'domain code is pure: it imports only domain code';
  if (a === 'src:contract' && b !== 'src:contract' && b !== 'src:domain') return 'the contract imports only the contract and the domain';
  if (a === 'server' && b.startsWith('src') && b !== 'src:domain' && b !== 'src:contract') return 'the server imports only the domain and the contract from src/';
  if ((a.startsWith('src') || a.startsWith('feature:') || a === 'workers') && b === 'server') return 'the client never imports the server';
  return null;
}

const problems: string[] = [];
for (const file of [...files('src'), ...files('workers'), ...files('server')]) {
  const text = readFileSync(join(root, file), 'utf8');
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3] ?? '';
    const domainImport = area(file) === 'src:domain' && !spec.startsWith('.');
    if (domainImport) {
      problems.push(`${file}: imports '${spec}': domain code is pure: no packages`);
      continue;
    }
    if (!spec.startsWith('.')) continue;
    const target = relative(root, resolve(dirname(join(root, file)), spec));
    const why = violation(file, target);
    if (why) problems.push(`${file}: imports '${spec}': ${why}`);
  }
}

if (problems.length) {
  console.error(`Import boundaries broken:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log('Import boundaries hold.');
