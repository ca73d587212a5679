/**
 * Which route an address opens: the rules of the app's route table (src/app/router.tsx), kept
 * apart from React so they can be tested on their own. They are React Router's for the patterns
 * the table uses: `:name` takes one segment, `*` the rest, letters match in either case, a
 * trailing slash is optional, and a more specific pattern wins over a vaguer one (a named
 * segment over a parameter, a parameter over `*`), whatever their order in the table.
 */
import type { ReactNode } from 'react';

/** A route of the table: a path, or none for a layout that only wraps its children. */
export interface RouteObject {
  path?: string;
  element?: ReactNode;
  children?: RouteObject[];
}

export type Params = Readonly<Record<string, string | undefined>>;

/** The routes from the table's root down to the one that answers an address, and its parameters. */
export interface RouteMatch {
  chain: RouteObject[];
  params: Params;
}

interface Branch {
  chain: RouteObject[];
  segments: string[];
  score: number;
  order: number;
}

// React Router's weights (its computeScore), so that the same table picks the same screen.
const STATIC_SEGMENT = 10;
const PARAM_SEGMENT = 3;
const SPLAT_PENALTY = -2;

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

function scoreOf(segments: string[]): number {
  return segments.reduce(
    (score, segment) => score + (segment === '*' ? SPLAT_PENALTY : segment.startsWith(':') ? PARAM_SEGMENT : STATIC_SEGMENT),
    segments.length,
  );
}

/** Every leaf of the table (a route with a path and no children), most specific first. */
export function rankRoutes(routes: RouteObject[]): Branch[] {
  const branches: Branch[] = [];
  const walk = (list: RouteObject[], parents: RouteObject[], prefix: string) => {
    for (const route of list) {
      const path = route.path === undefined ? prefix : route.path.startsWith('/') ? route.path : `${prefix}/${route.path}`;
      const chain = [...parents, route];
      if (route.children?.length) walk(route.children, chain, path);
      else if (route.path !== undefined) {
        const segments = segmentsOf(path);
        branches.push({ chain, segments, score: scoreOf(segments), order: branches.length });
      }
    }
  };
  walk(routes, [], '');
  return branches.sort((a, b) => b.score - a.score || a.order - b.order);
}

const decode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    // A malformed escape stays as typed, as the address bar shows it.
    return segment;
  }
};

function matchBranch(branch: Branch, parts: string[]): Params | null {
  const params: Record<string, string> = {};
  for (const [i, segment] of branch.segments.entries()) {
    if (segment === '*') {
      params['*'] = parts.slice(i).map(decode).join('/');
      return params;
    }
    const part = parts[i];
    if (part === undefined) return null;
    if (segment.startsWith(':')) params[segment.slice(1)] = decode(part);
    else if (segment.toLowerCase() !== decode(part).toLowerCase()) return null;
  }
  return parts.length === branch.segments.length ? params : null;
}

/** The route that answers `pathname`, or null when none does. */
export function matchRoutes(ranked: Branch[], pathname: string): RouteMatch | null {
  const parts = segmentsOf(pathname);
  for (const branch of ranked) {
    const params = matchBranch(branch, parts);
    if (params) return { chain: branch.chain, params };
  }
  return null;
}
