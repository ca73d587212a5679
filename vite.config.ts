import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { buildVersion } from './scripts/build-version.ts';
import { earlyScript } from './scripts/early-script.ts';
import { inlineShellCss } from './scripts/inline-shell-css.ts';
import { routePreloads } from './scripts/route-preloads.ts';

const version = buildVersion();

/** Writes dist/version.json, which the server answers /api/v2/client_version from. */
const versionFile = (): Plugin => ({
  name: 'lab-version-file',
  apply: 'build',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: 'version.json', source: JSON.stringify({ version }) });
  },
});

// Files the server can send precompressed (@fastify/static `preCompressed`): text, and the
// soft proof's WebAssembly, which compresses as well as code does.
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml|wasm)$/;
// Below about a kilobyte a file fits in the first packets either way: not worth a variant.
const PRECOMPRESS_MIN_BYTES = 1024;

/**
 * Writes a brotli (.br) and a gzip (.gz) copy next to every text file of the build, at the
 * slowest, smallest settings: paid once at build time, never per request. Runs after the
 * service worker is written (vite-plugin-pwa writes it in its own closeBundle).
 */
const precompress = (): Plugin => {
  let outDir = 'dist';
  return {
    name: 'lab-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const walk = (dir: string): string[] =>
          readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));
        for (const file of walk(outDir).filter((f) => COMPRESSIBLE.test(f))) {
          const body = readFileSync(file);
          if (body.length < PRECOMPRESS_MIN_BYTES) continue;
          const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
          const gz = gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
          if (br.length < body.length) writeFileSync(`${file}.br`, br);
          if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
        }
      },
    },
  };
};

// React Router's package points every import at its development build (its production build
// differs only in this flag), and its dev warnings are dead weight and console noise for users.
const ROUTER_DIST = /[\\/]react-router[\\/]dist[\\/]development[\\/].*\.mjs$/;
// `Component.displayName = '…'` is a property write, which the bundler must keep, and with it the
// component: React Router's <Form>, <ScrollRestoration> and unstable_HistoryRouter (and the
// submit and scroll code behind them) shipped on every page though the app uses none of them.
// displayName is read only by React DevTools.
const DISPLAY_NAME = /^[A-Za-z_$][\w$]*\.displayName = "[^"\n]*";$/gm;

/** Builds React Router as its production build, without the writes that defeat tree-shaking. */
const reactRouterProduction = (): Plugin => ({
  name: 'lab-react-router-production',
  apply: 'build',
  transform: {
    filter: { id: ROUTER_DIST },
    handler(code) {
      return { code: code.replace('var ENABLE_DEV_WARNINGS = true;', 'var ENABLE_DEV_WARNINGS = false;').replace(DISPLAY_NAME, ''), map: null };
    },
  },
});

// The early entry (src/app/early-list-page.ts) and its imports: nothing here may import React.
const EARLY_MODULES = /src[\\/](app[\\/]early-list-page|api[\\/](early-get|stored-session|request-timeout)|domain[\\/](paths|order-filters))\.ts$/;

export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify(version) },
  plugins: [
    react(),
    reactRouterProduction(),
    versionFile(),
    routePreloads(),
    earlyScript(),
    inlineShellCss(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'workers',
      filename: 'sw.ts',
      // src/app/app-update.ts registers it, with the update flow around it.
      injectRegister: false,
      includeAssets: ['logo.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        id: '/',
        name: 'Print Lab Orders',
        short_name: 'Print Lab',
        description: 'Order professional prints, mats, mounts, frames and canvas from your lab.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        background_color: '#f7f5f0',
        theme_color: '#1f2a36',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        // Icons and the manifest are added by the plugin; listing png here would list them twice.
        // wasm: LittleCMS for the soft proof (src/proof), which must work offline like the rest.
        globPatterns: ['**/*.{js,css,html,svg,wasm}'],
        // The error reporter's chunk is fetched only when a lab sets SENTRY_DSN (src/api/error-reporting.ts);
        // precaching it would download it onto every device anyway.
        globIgnores: ['version.json', 'route-preloads.json', 'assets/sentry-reporter-*.js'],
      },
      devOptions: { enabled: false },
    }),
    precompress(),
  ],
  build: {
    outDir: 'dist',
    // Maps are written for error reports but not linked from the scripts; the server never serves them.
    sourcemap: 'hidden',
    rolldownOptions: {
      output: {
        // Screens are lazy routes (src/app/router.tsx) and split by themselves. The first two
        // groups keep the big libraries in chunks of their own, whose names and hashes survive our
        // own deploys, so a returning browser downloads again only the code that changed.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/, priority: 2 },
            { name: 'dexie', test: /node_modules[\\/]dexie[\\/]/, priority: 1 },
            // The early entry and all it imports, in one chunk that imports nothing: it must run
            // before React has arrived (scripts/early-script.ts).
            { name: 'early', test: EARLY_MODULES, priority: 1 },
            // Our code every page loads (what index.html's script imports, not the screens), in one
            // chunk instead of eight: each is a request on one of the browser's six connections
            // to the server, and on a phone each costs a round trip before the first screen.
            { name: 'shell', test: (id) => !/node_modules/.test(id), tags: ['$initial'] },
          ],
        },
      },
    },
  },
  worker: { format: 'es' },
  // `npm run dev` serves the client with hot reload and sends API calls to `npm start`'s server.
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
