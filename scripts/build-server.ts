/**
 * The server's half of `npm run build`: compiles server/ to JavaScript in dist-server/, so a lab
 * runs it with plain `node` and installs only the production packages (`npm ci --omit=dev`).
 *
 * esbuild bundles our own code only: every package stays an import of node_modules, where sharp,
 * argon2, PGlite and pg-boss find their native and WebAssembly files. Every bundle sits at the top
 * of dist-server/, next to the migrations folder, because the server finds what it loads at run
 * time next to itself (`import.meta.url`): the migrations, the embedded database's thread
 * (pglite-worker.js), and package.json one folder up (the product version).
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { serverBuildVersion } from './build-version.ts';

/** Where the compiled server goes (outside dist/, which the server hands out to browsers). */
export const SERVER_OUT_DIR = 'dist-server';

/** Each compiled program and its source: the server, its database thread, the lab's commands. */
const ENTRIES = {
  main: 'server/main.ts',
  'pglite-worker': 'server/db/pglite-worker.ts',
  'catalogue-cli': 'server/cli/catalogue.ts',
  'discount-cli': 'server/cli/discount.ts',
  'seed-orders-cli': 'server/cli/seed-orders.ts',
};

/** The package a bare import names: `@aws-sdk/client-s3/x` → `@aws-sdk/client-s3`, `pg/lib` → `pg`. */
function packageOf(path: string): string {
  const parts = path.split('/');
  return path.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? path);
}

/** Packages the compiled code imports that `npm ci --omit=dev` would not install. */
export function missingRuntimePackages(metafile: Metafile, dependencies: Record<string, string>): string[] {
  const imported = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const i of output.imports) {
      if (!i.external || i.path.startsWith('node:') || builtinModules.includes(i.path)) continue;
      imported.add(packageOf(i.path));
    }
  }
  return [...imported].filter((name) => !(name in dependencies)).sort();
}

/** Compiles the server into `outDir` (replacing what was there) from the sources under `root`. */
export async function buildServer(root = '.', outDir = join(root, SERVER_OUT_DIR)): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: resolve(root),
    entryPoints: ENTRIES,
    outdir: resolve(outDir),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    // Stack traces name the TypeScript lines when node runs with --enable-source-maps.
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
  });
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const missing = missingRuntimePackages(result.metafile, pkg.dependencies ?? {});
  if (missing.length) {
    throw new Error(`The server imports ${missing.join(', ')}, which package.json lists only as dev dependencies (or not at all): a production install would not have them. Move them to "dependencies".`);
  }
  cpSync(join(root, 'server/db/migrations'), join(outDir, 'migrations'), { recursive: true });
  writeFileSync(join(outDir, 'version.json'), JSON.stringify({ version: serverBuildVersion(root) }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildServer().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
