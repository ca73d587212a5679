/**
 * Issue 30: a lab that keeps its files in S3. The browser sends photos straight to the bucket
 * (single PUTs and multipart parts from the upload worker), shows the lab's thumbnails and
 * previews from it on another device, and downloads the order's zip, the resale certificate and
 * the sales reports from it; the page's CSP lets it reach the store and the service worker
 * leaves those requests alone. Against s3rver (an S3-protocol server on loopback; it does not
 * check signatures, tests/unit/store-csp.test.ts checks the addresses the SDK signs) and a lab
 * server of this file's own, configured with S3_BUCKET and S3_ENDPOINT as a lab would be.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import S3rver from 's3rver';
import { MULTIPART_THRESHOLD } from '../../src/upload/shared/multipart-plan.ts';
import { aheadOfS3rver } from '../api/s3rver-multipart.ts';
import { unzip } from '../unit/fixtures/unzip.ts';
import { tile } from './builder-fixtures.ts';
import { EXTRA_SERVER_START_MS, choose, freePort, serverStarted, signIn, storedToken } from './helpers.ts';
import { largePhotos, photoDir, smallPhotos } from './upload-fixtures.ts';

const BUCKET = 'lab-photos';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A PUT the browser made to the bucket and s3rver kept. */
interface BrowserPut {
  key: string;
  /** "uploadId#partNumber" for a multipart part; null for a single PUT. */
  part: string | null;
  bytes: number;
}

let s3rver: S3rver;
let s3Dir = '';
let server: ChildProcess;
let dataDir = '';
/** The lab's origin, and the store's. */
let base = '';
let store = '';
const browserPuts: BrowserPut[] = [];

test.beforeAll(async () => {
  // The lab server's own start (helpers.ts serverStarted) and a little more.
  test.setTimeout(EXTRA_SERVER_START_MS + 30_000);
  base = `http://127.0.0.1:${await freePort()}`;
  s3Dir = mkdtempSync(join(tmpdir(), 'lab-e2e-s3-'));
  // The bucket rule a lab sets: PUT and GET from the app's origin, ETag readable (multipart).
  const cors = `<CORSConfiguration><CORSRule><AllowedOrigin>${base}</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader></CORSRule></CORSConfiguration>`;
  s3rver = new S3rver({ address: '127.0.0.1', port: 0, directory: s3Dir, silent: true, configureBuckets: [{ name: BUCKET, configs: [cors] }] });
  // Ahead of s3rver's own handlers: every upload PUT the page's origin got stored is counted.
  aheadOfS3rver(s3rver, async (ctx, next) => {
    await next();
    const prefix = `/${BUCKET}/incoming/`;
    if (ctx.method !== 'PUT' || ctx.headers.origin !== base || !ctx.path.startsWith(prefix) || ctx.status !== 200) return;
    const { uploadId, partNumber } = ctx.query;
    browserPuts.push({
      key: decodeURIComponent(ctx.path.slice(BUCKET.length + 2)),
      part: uploadId ? `${String(uploadId)}#${String(partNumber)}` : null,
      bytes: Number(ctx.headers['content-length']),
    });
  });
  store = `http://127.0.0.1:${(await s3rver.run()).port}`;
  dataDir = mkdtempSync(join(tmpdir(), 'lab-e2e-s3-data-'));
  server = spawn('node_modules/.bin/tsx', ['server/main.ts'], {
    env: {
      ...process.env,
      PORT: new URL(base).port,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CLIENT_DIR: 'dist',
      LOG_LEVEL: 'warn',
      NODE_NO_WARNINGS: '1',
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: store,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  server.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  await serverStarted(base, () => stderr);
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await s3rver?.close();
  for (const dir of [s3Dir, dataDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * A browser context on the lab that records what must never happen with the store: a request the
 * CSP blocked, a store request the service worker made or answered.
 */
async function device(browser: Browser): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ baseURL: base });
  const problems: string[] = [];
  context.on('request', (r) => {
    if (r.url().startsWith(store) && r.serviceWorker()) problems.push(`the service worker fetched ${r.method()} ${r.url()}`);
  });
  context.on('response', (r) => {
    if (r.url().startsWith(store) && r.fromServiceWorker()) problems.push(`the service worker answered ${r.url()}`);
  });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) problems.push(m.text());
  });
  return { context, page, problems };
}

/** A new photographer, signed up through the API and signed in through the screen. */
async function photographer(page: Page): Promise<{ email: string; password: string }> {
  const who = { email: `s3-${randomBytes(4).toString('hex')}@studio.example`, password: 'platinum-print-7' };
  const res = await page.request.post('/api/v2/users', { data: { email: who.email, first_name: 'Berenice', last_name: 'Abbott', password: who.password, password_confirmation: who.password } });
  expect(res.ok(), await res.text()).toBe(true);
  await page.goto('/login');
  await signIn(page, who);
  return who;
}

interface ListedPhoto {
  photo_file_name: string;
  presigned_photo_url: string;
  smallest_photo: string;
  size: number;
  derivatives_ready: boolean;
}

const listedPhotos = async (page: Page, guid: string): Promise<ListedPhoto[]> => {
  const res = await page.request.get(`/api/v2/lab_orders/${guid}/lab_order_photographs?per_page=100`, { headers: { token: (await storedToken(page)) ?? '' } });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { data: ListedPhoto[] }).data;
};

/** The naturalWidth of an image once loaded (0 while loading or when it failed). */
const loadedWidth = (img: ReturnType<Page['locator']>) => img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0));

// One lab server for the file: its tests run in order in one worker.
test.describe.configure({ mode: 'default' });

test.describe('an order in the bucket', () => {
  test.describe.configure({ mode: 'serial' });
  let who: { email: string; password: string };
  let orderGuid = '';
  /** The photos as chosen, by file name. */
  const originals = new Map<string, Buffer>();

  test('photos go straight to the bucket, single PUTs and multipart parts, each once, byte for byte', async ({ browser }) => {
    test.setTimeout(90_000);
    const dir = photoDir();
    const files = [...(await smallPhotos(dir, 2)), ...(await largePhotos(dir, 1, 18))];
    for (const file of files) originals.set(basename(file), readFileSync(file));
    const big = [...originals.values()].filter((b) => b.length > MULTIPART_THRESHOLD);
    expect(big).toHaveLength(1);

    const putsBefore = browserPuts.length;
    const { context, page, problems } = await device(browser);
    who = await photographer(page);
    // The service worker controls the page, and so the upload worker it starts.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 45_000 });
    await page.goto('/lab-orders/upload');
    await page.getByLabel('Order Name', { exact: true }).fill(`Bucket ${randomBytes(4).toString('hex')}`);
    await page.getByRole('button', { name: 'SAVE AND UPLOAD' }).click();
    await expect(page).toHaveURL(/\/lab-orders\/[^/]+\/upload-progress$/);
    orderGuid = /\/lab-orders\/([^/]+)\/upload-progress$/.exec(page.url())?.[1] ?? '';
    await page.getByLabel('SELECT PHOTOS TO UPLOAD').setInputFiles(files);
    await expect(page.getByText('3 of 3 photos uploaded')).toBeVisible({ timeout: 60_000 });
    rmSync(dir, { recursive: true, force: true });

    // What the bucket received from the page: one PUT for each small photo, each part of the big
    // one once, and never more bytes than the photos hold (nothing replayed, nothing twice).
    const byKey = new Map<string, BrowserPut[]>();
    for (const put of browserPuts.slice(putsBefore)) byKey.set(put.key, [...(byKey.get(put.key) ?? []), put]);
    expect(byKey.size).toBe(3);
    const sent = [...byKey.values()].map((puts) => ({ parts: puts.map((p) => p.part), bytes: puts.reduce((n, p) => n + p.bytes, 0) }));
    const single = sent.filter((s) => s.parts.every((p) => p === null));
    expect(single.map((s) => s.parts.length)).toEqual([1, 1]);
    const multipart = sent.find((s) => s.parts.every((p) => p !== null));
    expect(multipart?.parts.length).toBeGreaterThan(1);
    expect(new Set(multipart?.parts).size).toBe(multipart?.parts.length);
    expect(sent.map((s) => s.bytes).sort()).toEqual([...originals.values()].map((b) => b.length).sort());

    // The lab's originals are the bucket's, byte for byte.
    const listed = await listedPhotos(page, orderGuid);
    expect(listed.map((p) => p.photo_file_name).sort()).toEqual([...originals.keys()].sort());
    for (const photo of listed) {
      expect(new URL(photo.presigned_photo_url).origin).toBe(store);
      const stored = Buffer.from(await (await fetch(photo.presigned_photo_url)).arrayBuffer());
      expect(`${photo.photo_file_name}: ${sha256(stored)}`).toBe(`${photo.photo_file_name}: ${sha256(originals.get(photo.photo_file_name) ?? Buffer.alloc(0))}`);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  test('another device shows the lab’s thumbnails and previews from the bucket', async ({ browser }) => {
    test.setTimeout(60_000);
    const { context, page, problems } = await device(browser);
    await page.goto('/login');
    await signIn(page, who);
    await expect.poll(async () => (await listedPhotos(page, orderGuid)).every((p) => p.derivatives_ready), { timeout: 40_000 }).toBe(true);
    await page.goto(`/lab-orders/${orderGuid}/edit/order-builder`);
    // Under the service worker, which must let the bucket's images by: loaded again once it controls the page.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 45_000 });
    await page.reload();
    for (const name of originals.keys()) {
      // This device made no thumbnail of its own: the tile shows the lab's.
      const img = tile(page, name).locator('img');
      await expect.poll(() => loadedWidth(img), { timeout: 15_000 }).toBeGreaterThan(0);
      const src = new URL((await img.getAttribute('src')) ?? '');
      expect(src.origin).toBe(store);
      expect(src.pathname).toContain('/thumbnails/');
    }
    // The cropper shows the lab's preview, from the bucket too.
    const [first] = originals.keys();
    await tile(page, first ?? '').click();
    await choose(page, 'PAPER', 'Lustre');
    await choose(page, 'PRINT SIZE', '5x7');
    const preview = page.getByRole('img', { name: first });
    await expect.poll(() => loadedWidth(preview), { timeout: 15_000 }).toBeGreaterThan(0);
    const previewSrc = new URL((await preview.getAttribute('src')) ?? '');
    expect([previewSrc.origin, previewSrc.pathname.includes('/previews/')]).toEqual([store, true]);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('DOWNLOAD ALL: the zip the lab wrote to the bucket holds every original, byte for byte', async ({ browser }) => {
    test.setTimeout(60_000);
    const { context, page, problems } = await device(browser);
    await page.goto('/login');
    await signIn(page);
    await page.goto(`/lab-orders/${orderGuid}`);
    await page.getByRole('button', { name: 'CREATE ZIP' }).click();
    const link = page.getByRole('link', { name: 'DOWNLOAD ALL' });
    await expect(link).toBeVisible({ timeout: 40_000 });
    expect(new URL((await link.getAttribute('href')) ?? '').origin).toBe(store);
    const download = page.waitForEvent('download');
    await link.click();
    const entries = await unzip(readFileSync((await (await download).path()) ?? ''));
    expect([...entries.keys()].sort()).toEqual([...originals.keys()].sort());
    for (const [name, bytes] of originals) expect(`${name}: ${String(entries.get(name)?.equals(bytes))}`).toBe(`${name}: true`);
    expect(problems).toEqual([]);
    await context.close();
  });
});

test('the resale certificate and the sales reports go to the bucket and come back from it', async ({ browser }) => {
  test.setTimeout(60_000);
  const { context, page, problems } = await device(browser);
  await photographer(page);
  await page.goto('/account');
  await expect(page.getByText('No certificate on file.')).toBeVisible();
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
  const putsBefore = browserPuts.length;
  await page.getByLabel('Certificate (PDF)').setInputFiles({ name: 'resale.pdf', mimeType: 'application/pdf', buffer: pdf });
  await page.getByRole('button', { name: 'UPLOAD CERTIFICATE' }).click();
  await expect(page.getByText('A certificate is on file.')).toBeVisible();
  // One PUT from the page straight to the bucket.
  expect(browserPuts.slice(putsBefore).map((p) => [p.part, p.bytes])).toEqual([[null, pdf.length]]);
  const certificate = page.getByRole('link', { name: 'DOWNLOAD CERTIFICATE' });
  const download = page.waitForEvent('download');
  await certificate.click();
  const got = await download;
  expect(new URL(got.url()).origin).toBe(store);
  expect(readFileSync((await got.path()) ?? '').equals(pdf)).toBe(true);

  const year = new Date().getFullYear();
  await page.getByRole('button', { name: `GENERATE ${year}` }).click();
  const pdfLink = page.getByRole('link', { name: `DOWNLOAD ${year} PDF` });
  await expect(pdfLink).toBeVisible({ timeout: 30_000 });
  const report = page.waitForEvent('download');
  await pdfLink.click();
  const reportFile = await report;
  expect(new URL(reportFile.url()).origin).toBe(store);
  expect(readFileSync((await reportFile.path()) ?? '', 'latin1')).toMatch(/^%PDF-/);
  const csv = page.waitForEvent('download');
  await page.getByRole('link', { name: `DOWNLOAD ${year} CSV` }).click();
  const csvFile = await csv;
  expect(new URL(csvFile.url()).origin).toBe(store);
  expect(readFileSync((await csvFile.path()) ?? '', 'utf8')).toContain('TOTAL,,0.00,0.00,0.00,0.00,0.00,0.00');
  expect(problems).toEqual([]);
  await context.close();
});
