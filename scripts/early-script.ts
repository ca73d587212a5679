import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/** The module run before the app, an entry of its own (see the module's comment). */
export const EARLY_ENTRY = { name: 'early-list-page', module: 'src/app/early-list-page.ts' } as const;

/**
 * Names the early entry's chunk in index.html, ahead of the app's own script. Vite bundles the
 * module scripts of an HTML page into one entry, whose code runs only once all its imports (React
 * among them) have arrived; an entry of its own runs as soon as its few bytes have.
 */
export const earlyScript = (): Plugin => ({
  name: 'lab-early-script',
  apply: 'build',
  config(config) {
    const root = config.root ?? process.cwd();
    return {
      build: {
        rolldownOptions: {
          input: { index: resolve(root, 'index.html'), [EARLY_ENTRY.name]: resolve(root, EARLY_ENTRY.module) },
        },
      },
    };
  },
  generateBundle(_options, bundle) {
    // It runs before React only while it imports no other chunk (vite.config.ts's 'early' group).
    const chunk = Object.values(bundle).find((c) => c.type === 'chunk' && c.isEntry && c.name === EARLY_ENTRY.name);
    if (chunk?.type === 'chunk' && chunk.imports.length) this.error(`early-script: ${EARLY_ENTRY.module} imports ${chunk.imports.join(', ')}; it must import nothing`);
  },
  transformIndexHtml: {
    order: 'post',
    handler(html, ctx) {
      const chunk = Object.values(ctx.bundle ?? {}).find((c) => c.type === 'chunk' && c.isEntry && c.name === EARLY_ENTRY.name);
      if (!chunk) throw new Error(`early-script: no chunk for ${EARLY_ENTRY.module}`);
      // Module scripts run in the order the page names them: the early one goes first.
      const appScript = html.indexOf('<script type="module"');
      if (appScript < 0) throw new Error('early-script: index.html names no module script');
      return `${html.slice(0, appScript)}<script type="module" crossorigin src="/${chunk.fileName}"></script>\n    ${html.slice(appScript)}`;
    },
  },
});
