import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * The build's version: a hash of everything that goes into the client, so the same sources give
 * the same version and any change gives a new one (VITE_BUILD_ID overrides it). Running apps
 * compare it with the server's /client_version to know a new build is out.
 */
function buildVersion(): string {
  if (process.env.VITE_BUILD_ID) return process.env.VITE_BUILD_ID;
  const hash = createHash('sha256');
  const walk = (path: string) => {
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path).sort()) walk(join(path, entry));
    else hash.update(path).update(readFileSync(path));
  };
  for (const path of ['src', 'workers', 'public', 'index.html', 'package-lock.json', 'vite.config.ts']) walk(path);
  return hash.digest('hex').slice(0, 12);
}

const version = buildVersion();

/** Writes dist/version.json, which the server answers /api/v2/client_version from. */
const versionFile = (): Plugin => ({
  name: 'lab-version-file',
  apply: 'build',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: 'version.json', source: JSON.stringify({ version }) });
  },
});

export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify(version) },
  plugins: [
    react(),
    versionFile(),
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
        globPatterns: ['**/*.{js,css,html,svg}'],
        // The error reporter's chunk is fetched only when a lab sets SENTRY_DSN (src/api/error-reporting.ts);
        // precaching it would download it onto every device anyway.
        globIgnores: ['version.json', 'assets/sentry-reporter-*.js'],
      },
      devOptions: { enabled: false },
    }),
  ],
  build: {
    outDir: 'dist',
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Screens are lazy routes (src/app/router.tsx) and split by themselves. These groups only
        // keep the big libraries in chunks of their own, whose names and hashes survive our own
        // deploys, so a returning browser downloads again only the code that changed.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/, priority: 2 },
            { name: 'dexie', test: /node_modules[\\/]dexie[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
  worker: { format: 'es' },
  // `npm run dev` serves the client with hot reload and sends API calls to `npm start`'s server.
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
