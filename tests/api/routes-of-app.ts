import type { App } from '../../server/app.ts';
import { api } from './helper.ts';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * Every route the app serves, as 'METHOD /path/{param}': those of /api/v2/openapi.json (fetched
 * through inject), and those the router has but the document hides (the storage routes, the
 * document itself). HEAD mirrors GET and is left out.
 */
export async function reachableRoutes(app: App): Promise<{ documented: string[]; hidden: string[] }> {
  const res = await app.inject({ method: 'GET', url: api('/openapi.json') });
  if (res.statusCode !== 200) throw new Error(`openapi.json: ${res.statusCode}`);
  const doc = res.json<{ paths: Record<string, Record<string, unknown>> }>();
  const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
    METHODS.filter((m) => ops[m]).map((m) => `${m.toUpperCase()} ${path}`),
  );
  const known = new Set(documented);
  const hidden = routerRoutes(app.printRoutes()).filter((route) => !known.has(route));
  return { documented, hidden };
}

/**
 * Reads Fastify's printRoutes radix tree ('├── segment (GET, HEAD)', four columns per level,
 * each segment continuing its parent's) back into full paths, with ':param' written as the document writes it, '{param}'.
 */
export function routerRoutes(tree: string): string[] {
  const stack: string[] = [];
  const out: string[] = [];
  for (const line of tree.split('\n')) {
    const at = line.search(/[├└]── /);
    if (at < 0) continue;
    const depth = at / 4;
    const match = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(at + 4));
    stack.length = depth;
    stack.push(match?.[1] ?? '');
    const methods = match?.[2]?.split(', ') ?? [];
    const path = stack.join('').replace(/:([A-Za-z_]+)/g, '{$1}');
    for (const method of methods) if (method !== 'HEAD') out.push(`${method} ${path}`);
  }
  return out;
}
