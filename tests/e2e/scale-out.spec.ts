/**
 * The lab as it is deployed (README.md#deploy): two API processes on one PostgreSQL behind a
 * round-robin load balancer, photos in an S3-protocol bucket the browser uploads to directly.
 * The whole photographer journey runs through it in Chromium: sign-up, an upload, a builder change
 * made offline that reaches the lab once, checkout with the sandbox card, and an admin's status
 * change that the photographer then sees. Consecutive requests alternate between the processes, so
 * every step that holds across requests (session, upload steps, the outbox's idempotency, the
 * checkout) is proved across processes.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL, as .ci/run sets it): PGlite is one process's own database.
 * The spec starts its own servers and leaves the suite's e2e server alone.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import pg from 'pg';
import S3rver from 's3rver';
import { S3Storage } from '../../server/adapters/storage/s3-storage.ts';
import { freePort, scratchPostgres, startServer, type ServerProcess } from '../api/server-process.ts';
import { addButton, photosOfSize, tile } from './builder-fixtures.ts';
import { GOOD_CARD, addAddress, enterCard, labCheckout, settled } from './checkout-fixtures.ts';
import { DEMO_ADMIN, choose, signIn } from './helpers.ts';
import { RoundRobinProxy } from './round-robin-proxy.ts';

const BUCKET = 'lab-photos';
// The only access key s3rver takes (it checks no signature).
const S3_KEY = 'S3RVER';
const PHOTOS = ['PORTRAIT_0001.jpg', 'PORTRAIT_0002.jpg'];

const databaseUrl = process.env.TEST_DATABASE_URL;
// Databases made here are named after the one TEST_DATABASE_URL names, so a shared server's
// owner can tell whose they are.
const databasePrefix = () => `${(new URL(databaseUrl ?? 'postgres://x/postgres').pathname.slice(1) || 'postgres').replace(/\W/g, '_')}_scale_out`;

/** The bucket rule the the deploy steps (README.md#deploy) asks of a lab: the app's origin PUTs and GETs, and reads ETag. */
const corsRule = (origin: string) =>
  `<CORSConfiguration><CORSRule><AllowedOrigin>${origin}</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod>` +
  '<AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader></CORSRule></CORSConfiguration>';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

test.describe('the lab scaled out: two API processes, PostgreSQL and an S3 bucket', () => {
  test.skip(!databaseUrl, 'needs PostgreSQL: set TEST_DATABASE_URL to run it (.ci/run does)');

  const proxy = new RoundRobinProxy();
  let bucket: S3rver;
  let bucketDir = '';
  let photoDir = '';
  let storage: S3Storage;
  let bucketOrigin = '';
  let database: Awaited<ReturnType<typeof scratchPostgres>>;
  let processes: ServerProcess[] = [];

  test.beforeAll(async () => {
    // Two processes' first start on PostgreSQL (migrations, catalogue, job schema) and the client.
    test.setTimeout(120_000);
    await proxy.start();
    bucketDir = mkdtempSync(join(tmpdir(), 'lab-e2e-bucket-'));
    bucket = new S3rver({ address: '127.0.0.1', port: 0, directory: bucketDir, silent: true, configureBuckets: [{ name: BUCKET, configs: [corsRule(proxy.origin)] }] });
    const { port: bucketPort } = await bucket.run();
    bucketOrigin = `http://127.0.0.1:${bucketPort}`;
    storage = new S3Storage({ bucket: BUCKET, region: 'us-east-1', endpoint: bucketOrigin, forcePathStyle: true, credentials: { accessKeyId: S3_KEY, secretAccessKey: S3_KEY } });

    database = await scratchPostgres(databasePrefix());
    const ports = [await freePort(), await freePort()];
    const env = {
      DATABASE_URL: database.url,
      // With PostgreSQL and a bucket nothing goes to the machine's disk: a folder that cannot exist.
      DATA_DIR: '/nonexistent',
      CLIENT_DIR: resolve('dist'),
      PUBLIC_URL: proxy.origin,
      TRUST_PROXY: 'true',
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: bucketOrigin,
      S3_ACCESS_KEY_ID: S3_KEY,
      S3_SECRET_ACCESS_KEY: S3_KEY,
      // Production, as deployed, whatever an earlier spec in this worker left in process.env
      // (the proof harness's in-process vite build sets NODE_ENV); with it, one webhook sealing
      // key for every process (README.md#deploy).
      NODE_ENV: 'production',
      WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
    };
    // Started together, as after a deploy.
    processes = ports.map((port) => startServer({ ...env, PORT: String(port) }));
    await Promise.all(processes.map((p) => p.ready()));
    proxy.route(ports.map((port) => `http://127.0.0.1:${port}`));
  });

  test.afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await proxy.stop();
    await bucket?.close();
    await database?.drop();
    for (const dir of [bucketDir, photoDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('sign-up, upload, an offline builder change, checkout, and the lab status the photographer sees', async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ baseURL: proxy.origin });
    const page = await context.newPage();
    const email = `scale-${Date.now()}@studio.example`;
    await signUp(page, email);

    // Two photos, straight from the browser into the bucket.
    photoDir = mkdtempSync(join(tmpdir(), 'lab-e2e-scale-photos-'));
    const files = await photosOfSize(photoDir, PHOTOS.map((name) => ({ name, width: 3000, height: 2000 })));
    await page.goto('/lab-orders/upload');
    await page.getByLabel('Order Name', { exact: true }).fill(`Scale-out ${Date.now()}`);
    await page.getByRole('button', { name: 'SAVE AND UPLOAD' }).click();
    await expect(page).toHaveURL(/\/lab-orders\/[^/]+\/upload-progress$/);
    const orderGuid = /\/lab-orders\/([^/]+)\/upload-progress$/.exec(page.url())?.[1] ?? '';
    await page.getByLabel('SELECT PHOTOS TO UPLOAD').setInputFiles(files);
    await expect(page.getByText(`${PHOTOS.length} of ${PHOTOS.length} photos uploaded`)).toBeVisible({ timeout: 60_000 });

    // The builder: paper and size chosen online, the line item added offline.
    await page.getByRole('link', { name: 'SELECT PRODUCTS' }).click();
    await expect(page).toHaveURL(`/lab-orders/${orderGuid}/edit/order-builder`);
    await tile(page, PHOTOS[0] ?? '').click();
    await choose(page, 'PAPER', 'Lustre');
    await choose(page, 'PRINT SIZE', '8x10');
    const lineItemPosts = () => proxy.forwarded.filter((f) => f.method === 'POST' && f.url.startsWith(`/api/v2/lab_orders/${orderGuid}/line_items`)).length;
    await offline(context, async () => {
      await choose(page, 'FINISHING', 'NONE');
      await addButton(page).click();
      await page.getByRole('dialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Looks Good' }).click();
      await expect(page).toHaveURL(`/lab-orders/${orderGuid}/review`);
      await expect(page.getByRole('status', { name: 'Connection and sync' })).toContainText('1 change waiting to be sent');
      expect(lineItemPosts()).toBe(0);
    });
    await expect(page.getByRole('status', { name: 'Connection and sync' })).toContainText('All changes sent');
    const token = (await page.evaluate(() => localStorage.getItem('token'))) ?? '';
    const cart = { orderGuid, token, photos: new Map<string, string>() };
    const atLab = async () => {
      const answer = await page.request.get(`/api/v2/lab_orders/${orderGuid}/retrieve_full_order`, { headers: { token } });
      return ((await answer.json()) as { data: { line_items: { photo_file_name: string; quantity: number }[] } }).data.line_items.map((l) => `${l.photo_file_name} × ${l.quantity}`);
    };
    expect(await atLab()).toEqual([`${PHOTOS[0]} × 1`]);
    expect(lineItemPosts()).toBe(1);

    // Checkout with the sandbox's card.
    await page.getByRole('button', { name: 'CHECKOUT' }).click();
    await expect(page).toHaveURL(new RegExp(`/lab-orders/${orderGuid}/checkout-details$`));
    await settled(page);
    await addAddress(page);
    await enterCard(page, GOOD_CARD);
    await settled(page);
    await page.getByRole('button', { name: 'REVIEW & CONFIRM' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'REVIEW & CONFIRM' })).toBeVisible();
    await settled(page);
    await page.getByRole('button', { name: 'PLACE ORDER' }).click();
    await expect(page).toHaveURL(/\/lab-order-confirmation/);
    const paid = await labCheckout(page.request, cart);
    expect(paid.status).toBe('paid');
    expect(paid.stripe_order_confirmation ?? '').not.toBe('');

    // The lab starts printing it; the photographer sees so.
    const adminContext = await browser.newContext({ baseURL: proxy.origin });
    const admin = await adminContext.newPage();
    await admin.goto('/login');
    await signIn(admin, DEMO_ADMIN);
    await admin.goto(`/lab-orders/${orderGuid}`);
    const panel = admin.getByRole('complementary', { name: 'Admin panel' });
    await panel.getByLabel('Status', { exact: true }).selectOption('printing');
    await expect(panel.getByRole('region', { name: 'History' }).getByRole('listitem').first()).toContainText('Status: paid → printing');
    await adminContext.close();
    await page.goto(`/lab-orders/${orderGuid}`);
    await expect(page.getByText('PRINTING', { exact: true })).toBeVisible();
    // The lab's picture of the photo is read from the bucket, past the page's Content-Security-Policy.
    const fromBucket = page.locator(`img[src^="${bucketOrigin}/"]`).first();
    await expect.poll(() => fromBucket.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    // The offline change reached the lab once, the whole way through.
    expect(lineItemPosts()).toBe(1);
    expect(await atLab()).toEqual([`${PHOTOS[0]} × 1`]);
    // Both processes answered the journey's requests, and never with a server error.
    const [first = 0, second = 0] = proxy.answeredBy();
    expect(first, `answered: ${first} by one process, ${second} by the other`).toBeGreaterThan(0);
    expect(second, `answered: ${first} by one process, ${second} by the other`).toBeGreaterThan(0);
    expect(proxy.forwarded.filter((f) => f.status >= 500)).toEqual([]);
    await context.close();

    // Each original is in the bucket, byte for byte.
    const sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    const stored = await sql.query<{ file_name: string; key: string }>(
      'SELECT p.file_name, p.key FROM photographs p JOIN lab_orders o ON o.id = p.lab_order_id WHERE o.guid = $1 ORDER BY p.file_name',
      [orderGuid],
    );
    await sql.end();
    expect(stored.rows.map((r) => r.file_name)).toEqual(PHOTOS);
    for (const row of stored.rows) {
      const local = files.find((f) => basename(f) === row.file_name) ?? '';
      const copy = await storage.localCopy(row.key);
      expect(`${row.file_name}: ${sha256(readFileSync(copy.path))}`).toBe(`${row.file_name}: ${sha256(readFileSync(local))}`);
      await copy.release();
    }
  });
});

/** Signs a new photographer up through the three sign-up screens; they land signed in on their orders. */
async function signUp(page: Page, email: string): Promise<void> {
  await page.goto('/login');
  await page.getByRole('link', { name: 'SIGN UP' }).click();
  await page.getByLabel('First name').fill('Berenice');
  await page.getByLabel('Last name').fill('Abbott');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('changing-new-york-1');
  await page.getByLabel('Confirm password').fill('changing-new-york-1');
  await page.getByLabel("I agree to the lab's terms of service").check();
  await page.getByRole('button', { name: 'NEXT' }).click();
  await page.getByLabel('Referred by a photographer').selectOption('NO');
  await page.getByRole('button', { name: 'NEXT' }).click();
  await page.getByLabel('Business in Tennessee').selectOption('NO');
  await page.getByRole('button', { name: 'SUBMIT APPLICATION' }).click();
  await page.getByRole('link', { name: 'GO TO YOUR ORDERS' }).click();
  await expect(page.getByRole('heading', { name: 'ORDERS', exact: true })).toBeVisible();
}

/** Runs `steps` with the browser's network cut, and brings it back even when a step fails. */
async function offline(context: BrowserContext, steps: () => Promise<void>): Promise<void> {
  await context.setOffline(true);
  try {
    await steps();
  } finally {
    await context.setOffline(false);
  }
}
