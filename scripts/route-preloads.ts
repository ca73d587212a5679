import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { ROUTE_PRELOADS_FILE } from '../server/http/route-preloads-file.ts';
import { ROUTES } from '../src/app/routes.ts';

/**
 * The screens a visit opens on, by their route's pattern (src/app/routes.ts), with the module of
 * their lazy route (src/app/router.tsx): the list, where a signed-in photographer or admin lands
 * (/ and /lab-orders), /login where everyone else does, and the addresses a mail, a shared link or
 * a reload half-way leads to (an order, its upload, builder and cart, NEW LAB ORDER, the password
 * reset). Without its files named, a fresh visit to the builder asked for its files only after
 * the app's own scripts had run, a round trip later (docs/performance-notes.md §3). The
 * server cannot see the session: a signed-out visitor from a mail link fetches that screen's files
 * before being sent to /login, as one at / fetches the list's.
 */
const FIRST_SCREENS: Record<string, string> = {
  [ROUTES.home]: 'src/features/orders/orders-list-screen.tsx',
  [ROUTES.labOrders]: 'src/features/orders/orders-list-screen.tsx',
  [ROUTES.login]: 'src/features/auth/login-screen.tsx',
  [ROUTES.resetPassword]: 'src/features/auth/reset-password-screen.tsx',
  [ROUTES.newOrder]: 'src/features/orders-new/new-order-screen.tsx',
  [ROUTES.orderDetail]: 'src/features/order-detail/order-detail-screen.tsx',
  [ROUTES.uploadProgress]: 'src/features/upload/upload-progress-screen.tsx',
  [ROUTES.orderBuilder]: 'src/features/order-builder/order-builder-screen.tsx',
  [ROUTES.cartReview]: 'src/features/cart-review/cart-review-screen.tsx',
};

interface ChunkLike {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  viteMetadata?: { importedCss: Set<string> };
}

/**
 * Writes which files each first screen's lazy route loads beyond what index.html already lists:
 * its chunk, the chunks it imports, and its stylesheets. The server names them in the page it
 * answers for that path (<link rel="modulepreload">), so they download alongside the app's own
 * scripts instead of after those have run and matched the route: one round trip and the app's
 * start-up less before the first screen (Lighthouse mobile on /lab-orders, docs/performance-notes.md §3).
 */
export const routePreloads = (): Plugin => {
  let root = process.cwd();
  return {
    name: 'lab-route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = new Map<string, ChunkLike>();
      for (const file of Object.values(bundle)) if (file.type === 'chunk') chunks.set(file.fileName, file as ChunkLike);
      const closure = (start: ChunkLike[]): Set<string> => {
        const seen = new Set<string>();
        const visit = (chunk: ChunkLike) => {
          if (seen.has(chunk.fileName)) return;
          seen.add(chunk.fileName);
          for (const css of chunk.viteMetadata?.importedCss ?? []) seen.add(css);
          for (const name of chunk.imports) {
            const next = chunks.get(name);
            if (next) visit(next);
          }
        };
        start.forEach(visit);
        return seen;
      };
      const shell = closure([...chunks.values()].filter((c) => c.isEntry));
      const preloads: Record<string, string[]> = {};
      for (const [path, module] of Object.entries(FIRST_SCREENS)) {
        const id = resolve(root, module);
        const screen = [...chunks.values()].find((c) => c.facadeModuleId === id);
        if (!screen) this.error(`route-preloads: no chunk for ${module} (was it renamed? see FIRST_SCREENS)`);
        preloads[path] = [...closure([screen])].filter((file) => !shell.has(file)).map((file) => `/${file}`);
      }
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: JSON.stringify(preloads) });
    },
  };
};
