/**
 * The upload benchmark's peer (issue 14): Uppy's S3 uploader in a page of its own
 * (tests/bench/uppy-page), built here by Vite for the bench only, served with a tiny S3 shim from
 * the storage proxy's origin (the lab's origin for the browser), and run on the same photos, the
 * same order storage and the same lab calls as our worker. Node only: the page's code runs in
 * Chromium and is reached through `window.uppyRun`.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { build } from 'vite';

const PAGE_PREFIX = '/bench-uppy/';
const SHIM_PREFIX = '/bench-s3/';

/** Builds the Uppy page into `outDir` (not dist: it never ships with the app). */
export async function buildUppyPage(outDir: string): Promise<void> {
  await build({
    configFile: false,
    root: resolve(import.meta.dirname, 'uppy-page'),
    base: PAGE_PREFIX,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };
const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function xml(res: ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>${body}`);
}

/**
 * The storage proxy's `answerHere`: the built page under /bench-uppy/, and the S3 shim under
 * /bench-s3/. The shim stands for the S3 endpoint's answers to CreateMultipartUpload and
 * CompleteMultipartUpload, which Uppy 6 sends itself after signRequest; the lab's own calls
 * (create_presigned_url, complete_upload) were already made inside signRequest, so the shim only
 * hands their results back in S3's XML (one loopback round trip each, twice per photo).
 */
export function uppyRoutes(pageDir: string): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://bench');
    if (url.pathname.startsWith(PAGE_PREFIX)) {
      const file = join(pageDir, url.pathname.slice(PAGE_PREFIX.length) || 'index.html');
      try {
        const body = readFileSync(file);
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
        res.end(body);
      } catch {
        res.writeHead(404).end();
      }
      return true;
    }
    if (!url.pathname.startsWith(SHIM_PREFIX)) return false;
    // The body (the completion's part list) is read and dropped: the lab already has it.
    req.resume();
    req.on('end', () => {
      const what = url.pathname.slice(SHIM_PREFIX.length);
      if (what === 'initiate') {
        const uploadId = xmlText(url.searchParams.get('uploadId') ?? '');
        xml(res, `<InitiateMultipartUploadResult><Bucket>lab</Bucket><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`);
      } else if (what === 'complete') {
        const key = xmlText(url.searchParams.get('key') ?? '');
        xml(res, `<CompleteMultipartUploadResult><Location>${SHIM_PREFIX}${key}</Location><Bucket>lab</Bucket><Key>${key}</Key></CompleteMultipartUploadResult>`);
      } else {
        res.writeHead(204).end();
      }
    });
    return true;
  };
}

export interface UppyRunResult {
  ms: number;
  confirmed: number;
  failures: string[];
}

/** Uppy sends `paths` into `orderGuid` with `limit` files (= PUTs) at once; timed in the page. */
export async function runUppy(
  context: BrowserContext,
  opts: { paths: string[]; orderGuid: string; token: string; limit: number; partSize: number; multipartAbove: number },
): Promise<UppyRunResult> {
  const page = await context.newPage();
  try {
    await page.goto(`${PAGE_PREFIX}index.html`);
    await page.waitForFunction("document.title === 'uppy ready'");
    await page.locator('#bench-files').setInputFiles(opts.paths);
    const args = { orderGuid: opts.orderGuid, token: opts.token, limit: opts.limit, shim: SHIM_PREFIX.slice(0, -1), partSize: opts.partSize, multipartAbove: opts.multipartAbove };
    return (await page.evaluate(`window.uppyRun(${JSON.stringify(args)})`)) as UppyRunResult;
  } finally {
    await page.close();
  }
}
