/**
 * The proof engine in Chromium without the app's screens: Vite builds the harness page
 * (tests/e2e/proof-harness/), which imports the real bridge and so the real worker and LittleCMS's
 * WebAssembly, and a small static server serves it with the test's photos and profiles. Used by
 * tests/e2e/proof-engine.spec.ts and the bench's proof section.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { build } from 'vite';
import type { ProofIntent } from '../../src/proof/shared/proof-api.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.icc': 'application/vnd.iccprofile',
};

export interface HarnessAsk {
  photo: string;
  /** A URL of the harness server; `asBlob` fetches it in the page and sends the Blob instead. */
  source: string;
  asBlob?: boolean;
  paper: string;
  intent: ProofIntent;
  gamutWarning: boolean;
  gamutColour?: string;
}

export interface HarnessAnswer {
  width: number;
  height: number;
  outOfGamut: number;
  /** The proof's pixels, RGBA, as the page decodes the answer's image (empty unless asked). */
  rgba: number[];
  ms: number;
}

/** What the harness page puts on globalThis.proofHarness. */
export interface HarnessApi {
  proof(ask: HarnessAsk, withPixels?: boolean): Promise<HarnessAnswer>;
  /** Times `runs` proofs of one ask, each of a new photo id (nothing cached), and the longest main-thread task. */
  timeProofs(ask: HarnessAsk, runs: number): Promise<{ ms: number[]; longestTask: number }>;
  /**
   * Baselines for the bench, in the page: decoding `url` to pixels as the worker does, making the
   * proof's file (a BMP) of those pixels, and, for comparison, encoding them as a PNG as the proof
   * once did, `runs` times each (ms).
   */
  decodeAndEncode(url: string, runs: number): Promise<{ decode: number[]; file: number[]; png: number[] }>;
}

/** The harness page's global, as page.evaluate's functions reach it: `(globalThis as unknown as HarnessPage).proofHarness`. */
export interface HarnessPage {
  proofHarness: HarnessApi;
}

export interface ProofHarness {
  origin: string;
  close(): Promise<void>;
}

/** Builds the harness into a temporary folder (a few seconds). */
export async function buildProofHarness(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'proof-harness-'));
  // Vite's build sets process.env.NODE_ENV=production and leaves it: put it back, or every server
  // a later spec of this worker starts would run as production.
  const nodeEnv = process.env.NODE_ENV;
  try {
    await build({
      configFile: false,
      root: join(import.meta.dirname, 'proof-harness'),
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true, sourcemap: false },
      worker: { format: 'es' },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  return outDir;
}

/**
 * Serves the built harness and `files` (path → bytes: photos, profiles) on `port` (0: any).
 * The CSP is the app's for scripts, so the WebAssembly must compile under 'wasm-unsafe-eval'.
 */
export async function startProofHarness(files: Record<string, Uint8Array>, port = 0): Promise<ProofHarness> {
  const outDir = await buildProofHarness();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://harness').pathname;
    const body = files[path] ?? readBuilt(outDir, path === '/' ? '/index.html' : path);
    if (!body) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(path)] ?? (path === '/' ? TYPES['.html']! : 'application/octet-stream'),
      'content-security-policy': "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' blob: data:; connect-src 'self'",
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the harness server has no port');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

function readBuilt(outDir: string, path: string): Buffer | null {
  const file = normalize(join(outDir, path));
  if (!file.startsWith(outDir)) return null;
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}
