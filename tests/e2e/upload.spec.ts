/**
 * Issue 10: a new order and its photos, uploaded through IndexedDB, the upload worker and signed
 * storage URLs, surviving reloads, lost connections and a closed browser.
 *
 * The first group needs only the client and runs today. The second group drives the server half
 * of issue 10 (check_unique_order_name, POST /lab_orders, create_presigned_url with multipart,
 * complete_upload, photograph_uploaded, lab_order_photographs) and cannot pass until it lands.
 * Uploads go through tests/e2e/storage-proxy.ts, a pass-through proxy that counts what storage
 * received, slows the uplink so a test can act half-way, and injects the one expiry fault.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser.ts';
import { idbRows, probeFails, signIn, storedToken } from './helpers.ts';
import { expectAccessible } from './screens.ts';
import { StorageProxy } from './storage-proxy.ts';
import { damagedJpeg, largePhotos, photoDir, smallPhotos, textNamedJpg } from './upload-fixtures.ts';

const SELECT = 'SELECT PHOTOS TO UPLOAD';
const TAKEN = 'Order Name already taken. Please create a different Order Name.';
const indicator = (page: Page) => page.getByRole('status', { name: 'Connection and sync' });
const unique = (what: string) => `${what} ${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
/**
 * Nothing on the screen's own content reaches past the right edge. (The shared navigation bar is
 * checked where it is built: at 320 px it still overflows on this branch.)
 */
const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => {
    const edge = document.documentElement.clientWidth + 0.5;
    return [...document.querySelectorAll('main *')].every((el) => el.getBoundingClientRect().right <= edge);
  });


interface Part {
  entryId: string;
  partNumber: number;
  uploadId: string;
}

/** Names the NEW LAB ORDER form's order and lands on its upload page; returns the order's guid. */
async function newOrder(page: Page, name = unique('Wedding')): Promise<string> {
  await page.goto('/lab-orders');
  await page.getByRole('link', { name: 'NEW LAB ORDER' }).click();
  await expect(page).toHaveURL(/\/lab-orders\/upload$/);
  // The address changes at the click; the list stays, marked busy, until the form's code is in.
  await expect(page.getByRole('heading', { name: 'NEW LAB ORDER' })).toBeVisible();
  await page.getByLabel('Order Name', { exact: true }).fill(name);
  const save = page.getByRole('button', { name: 'SAVE AND UPLOAD' });
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page).toHaveURL(/\/lab-orders\/[^/]+\/upload-progress$/);
  return /\/lab-orders\/([^/]+)\/upload-progress$/.exec(page.url())?.[1] ?? '';
}

/** The photos the server lists for an order, read with the signed-in token. */
async function serverPhotos(request: APIRequestContext, token: string, guid: string): Promise<{ photo_file_name: string }[]> {
  const res = await request.get(`/api/v2/lab_orders/${guid}/lab_order_photographs?page=1&per_page=100`, { headers: { token } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: { photo_file_name: string }[] }).data;
}

const photosOf = async (page: Page, guid: string) => serverPhotos(page.request, (await storedToken(page)) ?? '', guid);

/**
 * The part a storage PUT was for, read from its signed URL: the local store's part URLs, like
 * S3's UploadPart URLs, carry uploadId and partNumber in their query. (Read from the URL the
 * proxy saw, not from create_presigned_url answers: the body of an answer that arrives as the
 * page reloads can no longer be read, and its parts would go uncounted.)
 */
function partOf(url: string): string | null {
  const query = new URL(url, 'http://storage.test').searchParams;
  const uploadId = query.get('uploadId');
  const partNumber = Number(query.get('partNumber'));
  return uploadId && partNumber > 0 ? `${uploadId}#${partNumber}` : null;
}

/** How many times storage kept each part (a part sent again overwrites the first copy). */
function storedParts(proxy: StorageProxy): Map<string, number> {
  const times = new Map<string, number>();
  for (const put of proxy.storedPuts()) {
    const part = partOf(put.url);
    expect(part, `a stored PUT that is not a part: ${put.url}`).not.toBeNull();
    if (part) times.set(part, (times.get(part) ?? 0) + 1);
  }
  return times;
}

/**
 * The rule for a lost connection or a reload (issue 10's benchmark target (b)): a part already
 * answered is never sent again; only a PUT that was in flight when the link went may be, once.
 * Storage may even have kept such a PUT whole: its last bytes had left the browser (they sit in
 * the sockets' buffers) before the app could stop it, and the answer never reached the app.
 */
function expectOnlyInFlightPartsResent(proxy: StorageProxy, inFlight: ReadonlySet<string>): void {
  for (const [part, times] of storedParts(proxy)) {
    expect(times, `part ${part} stored ${times} times`).toBeLessThanOrEqual(inFlight.has(part) ? 2 : 1);
  }
}

/** The parts whose PUTs are under way at the proxy right now. */
const partsInFlight = (proxy: StorageProxy) => new Set(proxy.puts.filter((p) => !p.complete).flatMap((p) => partOf(p.url) ?? []));

test.describe('client side', () => {
  test('the new-order form and the upload screen load only on their routes; the worker only when photos are queued', async ({ browser }) => {
    // No service worker: its precache would fetch every chunk and hide what each route needs.
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('.js')) scripts.push(new URL(r.url()).pathname);
    });
    const loaded = (name: RegExp) => scripts.some((s) => name.test(s));

    await page.goto('/login');
    await signIn(page);
    await page.goto('/lab-orders');
    await expect(page.getByRole('heading', { name: 'ORDERS', exact: true })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(loaded(/new-order-screen|upload-progress-screen|\/uploads-|upload-worker/)).toBe(false);

    await page.getByRole('link', { name: 'NEW LAB ORDER' }).click();
    await expect(page.getByRole('heading', { name: 'NEW LAB ORDER' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'SAVE AND UPLOAD' })).toBeDisabled();
    expect(loaded(/new-order-screen/)).toBe(true);
    expect(loaded(/upload-progress-screen|upload-worker/)).toBe(false);
    await context.close();
  });

  test('on a touch screen, where nothing can be dropped, the zone offers choosing photos; with a mouse, dropping', async ({ browser }) => {
    for (const [touch, title] of [
      [true, 'Choose JPEG or PNG photos to upload'],
      [false, 'Drop JPEG or PNG photos here'],
    ] as const) {
      const context = await browser.newContext({ hasTouch: touch, isMobile: touch, viewport: { width: 375, height: 740 } });
      const page = await context.newPage();
      await page.goto('/login');
      await signIn(page);
      const created = await page.request.post('/api/v2/lab_orders', { headers: { token: (await storedToken(page)) ?? '' }, data: { order_name: unique('Touch') } });
      expect(created.status()).toBe(201);
      const guid = ((await created.json()) as { data: { attributes: { guid: string } } }).data.attributes.guid;
      await page.goto(`/lab-orders/${guid}/upload-progress`);
      await expect(page.getByRole('region', { name: title })).toBeVisible();
      await expect(page.getByText(touch ? 'Drop JPEG or PNG photos here' : 'Choose JPEG or PNG photos to upload')).toHaveCount(0);
      await expect(page.getByLabel(SELECT)).toBeAttached();
      await context.close();
    }
  });

  test('offline: chosen photos are kept and checked on this device, a text file named .jpg is rejected with its reason, the rest wait for a connection', async ({ page, context }) => {
    const dir = photoDir();
    const photos = await smallPhotos(dir, 20);
    const notes = textNamedJpg(dir);
    await page.goto('/login');
    await signIn(page);
    await page.goto('/lab-orders');
    // The service worker precaches the whole client first: slow on a busy machine.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 45_000 });

    // On a train: the order's page opens from the app's own cache.
    await context.setOffline(true);
    await page.goto('/lab-orders/an-order-made-earlier/upload-progress');
    await expect(page.getByRole('heading', { name: 'UPLOAD PHOTOS' })).toBeVisible();
    await page.getByLabel(SELECT).setInputFiles([...photos, notes]);

    await expect(page.getByText('0 of 20 photos uploaded')).toBeVisible();
    await expect(page.getByText('1 photo rejected')).toBeVisible();
    const rejected = page.getByRole('region', { name: 'Rejected files' });
    await expect(rejected.getByText('REJECTED', { exact: true })).toBeVisible();
    await expect(rejected.getByText('notes.jpg is not a JPEG or PNG photo.')).toBeVisible();
    await expect(page.getByText('Waiting for a connection', { exact: true })).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'Upload of IMG_0001.jpg' })).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'All uploads' })).toBeVisible();
    await expect(indicator(page)).toContainText('Offline');
    await expect(indicator(page)).toContainText('20 uploads waiting to be sent');

    // Checked and thumbnailed in the worker, with no connection at all (the checksum is computed
    // while each photo is sent).
    await expect.poll(async () => (await idbRows<{ state: string }>(page, 'uploads')).filter((u) => u.state === 'ready').length, { timeout: 30_000 }).toBe(20);
    expect(await idbRows(page, 'uploadThumbnails')).toHaveLength(20);
    await expect(page.locator('img.queued-thumb[src^="blob:"]').first()).toBeVisible();

    // A reload loses nothing.
    await page.reload();
    await expect(page.getByText('0 of 20 photos uploaded')).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'Upload of IMG_0020.jpg' })).toBeAttached();

    // A phone held upright: no sideways scroll, every control still there.
    await page.setViewportSize({ width: 320, height: 720 });
    await expect(page.getByRole('button', { name: 'Pause IMG_0001.jpg' })).toBeVisible();
    expect(await noSidewaysScroll(page)).toBe(true);
    await page.goto('/lab-orders/upload');
    await expect(page.getByLabel('Order Name', { exact: true })).toBeVisible();
    expect(await noSidewaysScroll(page)).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });
});

test.describe('against the lab', () => {
  let proxy: StorageProxy;
  let context: BrowserContext;
  let page: Page;

  test.beforeEach(async ({ browser, baseURL }) => {
    proxy = new StorageProxy({ target: baseURL ?? '' });
    await proxy.start();
    context = await browser.newContext({ baseURL: proxy.origin });
    page = await context.newPage();
    await page.goto('/login');
    await signIn(page);
  });

  test.afterEach(async () => {
    await context.close();
    await proxy.stop();
  });

  test('NEW LAB ORDER: SAVE AND UPLOAD waits for a unique name; a taken one is refused with the spec words', async () => {
    const name = unique('Smith family');
    await newOrder(page, name);
    await expect(page.getByRole('heading', { name: 'UPLOAD PHOTOS' })).toBeVisible();

    await page.goto('/lab-orders/upload');
    const save = page.getByRole('button', { name: 'SAVE AND UPLOAD' });
    await expect(save).toBeDisabled();
    // The same name, typed differently: the lab compares trimmed and case-insensitive.
    await page.getByLabel('Order Name', { exact: true }).fill(`  ${name.toUpperCase()} `);
    await expect(page.getByText(TAKEN)).toBeVisible();
    await expect(save).toBeDisabled();
    await page.getByLabel('Order Name', { exact: true }).fill(`${name} reprints`);
    await expect(page.getByText(TAKEN)).toHaveCount(0);
    await expect(save).toBeEnabled();
  });

  test('20 JPEGs and a text file named .jpg: the 20 arrive with thumbnails, the text file is REJECTED with its reason, the same photos again send nothing', async () => {
    const dir = photoDir();
    const photos = await smallPhotos(dir, 20);
    const guid = await newOrder(page);
    await page.getByLabel(SELECT).setInputFiles([...photos, textNamedJpg(dir)]);

    await expect(page.getByText('20 of 20 photos uploaded')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('heading', { name: 'UPLOAD COMPLETE' })).toBeVisible();
    await expect(page.getByText('1 photo rejected')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Rejected files' }).getByText('notes.jpg is not a JPEG or PNG photo.')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Uploaded photos' }).getByRole('img', { name: /^IMG_\d{4}\.jpg$/ })).toHaveCount(20);
    await expect(page.getByRole('link', { name: 'SELECT PRODUCTS' })).toHaveAttribute('href', `/lab-orders/${guid}/edit/order-builder`);
    await expect(page.getByRole('button', { name: 'UPLOAD MORE' })).toBeVisible();
    await expect(indicator(page)).toContainText('All changes sent');
    expect((await photosOf(page, guid)).map((p) => p.photo_file_name).sort()).toEqual(photos.map((p) => p.split('/').pop()).sort());
    const sent = proxy.storedPuts().length;
    expect(sent).toBe(20);

    // The same 20 again (another card reader, the same shoot): found by checksum, nothing sent.
    await page.getByRole('button', { name: 'UPLOAD MORE' }).click();
    await page.getByLabel(SELECT).setInputFiles(photos);
    // The picker closes once the batch is kept on the device.
    await expect(page.getByLabel(SELECT)).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Photos being uploaded' })).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByRole('heading', { name: 'UPLOAD COMPLETE' })).toBeVisible();
    await expect(page.getByText('20 of 20 photos uploaded')).toBeVisible();
    expect(proxy.storedPuts().length).toBe(sent);
    expect(await photosOf(page, guid)).toHaveLength(20);
    rmSync(dir, { recursive: true, force: true });
  });

  test('a photo whose image data the lab finds damaged after accepting it shows CANNOT BE PRINTED with the reason, without a reload', async () => {
    const dir = photoDir();
    const [good = ''] = await smallPhotos(dir, 1);
    const damaged = await damagedJpeg(dir, 'IMG_0042.jpg');
    await newOrder(page);
    let loads = 0;
    page.on('load', () => (loads += 1));
    await page.getByLabel(SELECT).setInputFiles([good, damaged]);
    // Its header, end marker and checksum are in order: the upload accepts it.
    await expect(page.getByText('2 of 2 photos uploaded')).toBeVisible({ timeout: 60_000 });
    // The derivatives job finds the damage; the screen learns it from the lab on its own.
    const tile = (name: string) => page.getByRole('region', { name: 'Uploaded photos' }).getByRole('listitem').filter({ hasText: name });
    await expect(tile('IMG_0042.jpg')).toContainText(
      'CANNOT BE PRINTED IMG_0042.jpg could not be read: its image data is damaged, so the lab cannot print it. Please export it again and upload it again.',
      { timeout: 45_000 },
    );
    await expect(tile('IMG_0001.jpg')).not.toContainText('CANNOT BE PRINTED');
    expect(loads).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });

  test('mid-upload, the screen holds up on a desktop and on the narrowest phone: rows with progress, thumbnails, a REJECTED file', async () => {
    test.setTimeout(180_000);
    const dir = photoDir();
    // Small photos first: they arrive (thumbnails) while the large ones are still on their way.
    const photos = [...(await smallPhotos(dir, 4)), ...(await largePhotos(dir, 2))];
    proxy.throttle = 1_000_000;
    await newOrder(page);
    await page.getByLabel(SELECT).setInputFiles([...photos, textNamedJpg(dir)]);
    await expect(page.getByText('4 of 6 photos uploaded')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('region', { name: 'Uploaded photos' }).getByRole('img')).toHaveCount(4);
    await expect(page.getByRole('region', { name: 'Rejected files' }).getByText('REJECTED', { exact: true })).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'Upload of BIG_0002.jpg' })).toBeVisible();
    await expectAccessible(page, '/lab-orders/:order/upload-progress mid-upload');
    await page.setViewportSize({ width: 320, height: 720 });
    await expectAccessible(page, '/lab-orders/:order/upload-progress mid-upload');
    rmSync(dir, { recursive: true, force: true });
  });

  test('a reload half-way finishes without sending a finished part again', async () => {
    // Three 18 MB photos at a photographer's uplink, on a machine busy with other tests.
    test.setTimeout(180_000);
    const dir = photoDir();
    const photos = await largePhotos(dir, 3);
    // A 4 MB/s uplink per request: the parts take seconds, so the reload lands half-way.
    proxy.throttle = 4_000_000;
    const guid = await newOrder(page);
    await page.getByLabel(SELECT).setInputFiles(photos);
    // Half-way: some parts stored, and parts of a photo not finished yet recorded on this device
    // (a photo's part rows go when it is done, so a count of rows is a moment a poll can miss).
    await expect
      .poll(async () => proxy.storedPuts().length >= 3 && (await idbRows<Part>(page, 'uploadParts')).length >= 1, { timeout: 60_000, intervals: [100] })
      .toBe(true);
    const recorded = await idbRows<Part>(page, 'uploadParts');
    // Unconfirmed on this device: PUTs under way at the storage, and parts the storage has kept
    // whose answer had not been recorded here yet (on its way back, or being written, when the
    // page went). Only these may be sent again, once; a part recorded here never.
    const known = new Set(recorded.map((p) => `${p.uploadId}#${p.partNumber}`));
    const inFlight = new Set([...partsInFlight(proxy), ...[...storedParts(proxy).keys()].filter((part) => !known.has(part))]);
    await page.reload();
    await expect(page.getByText('3 of 3 photos uploaded')).toBeVisible({ timeout: 120_000 });
    await expect(page.getByText('Failed')).toHaveCount(0);

    const stored = storedParts(proxy);
    for (const part of recorded) expect(stored.get(`${part.uploadId}#${part.partNumber}`), `part ${part.partNumber} of ${part.uploadId}`).toBe(1);
    expectOnlyInFlightPartsResent(proxy, inFlight);
    expect(await photosOf(page, guid)).toHaveLength(3);
    rmSync(dir, { recursive: true, force: true });
  });

  test('offline half-way: the queue waits for a connection, not an error, and finishes when it is back', async () => {
    test.setTimeout(180_000);
    const dir = photoDir();
    const photos = await largePhotos(dir, 2);
    proxy.throttle = 4_000_000;
    const guid = await newOrder(page);
    await page.getByLabel(SELECT).setInputFiles(photos);
    await expect.poll(async () => (await idbRows<Part>(page, 'uploadParts')).length, { timeout: 60_000, intervals: [100] }).toBeGreaterThanOrEqual(1);

    const inFlightBefore = partsInFlight(proxy);
    const probed = probeFails(context);
    await context.setOffline(true);
    await expect(page.getByText('Waiting for a connection', { exact: true })).toBeVisible();
    // Counted once the app knows it is offline: a PUT the app started just before the connection
    // went (between a count taken earlier and setOffline taking effect) reached the lab rightly,
    // and may be sent again like any part cut off (a clean-clone run counted one PUT more than the parts).
    const startedOnline = proxy.puts.length;
    const inFlight = new Set([...inFlightBefore, ...partsInFlight(proxy)]);
    // PUTs the page or its worker start from here on, while the link is cut.
    const startedOffline: string[] = [];
    context.on('request', (r) => r.method() === 'PUT' && startedOffline.push(r.url()));
    await expect(page.getByRole('alert')).toHaveCount(0);
    // Until the app's first probe of the lab has failed (probeFails in helpers.ts).
    await probed;
    // Nothing is sent while offline: no PUT starts, and the app stopped those under way.
    expect(startedOffline).toEqual([]);
    expect(proxy.puts.length).toBe(startedOnline);
    await expect(page.getByText('Failed')).toHaveCount(0);
    await expect(page.getByText('Waiting for a connection', { exact: true })).toBeVisible();

    await context.setOffline(false);
    await expect(page.getByText('2 of 2 photos uploaded')).toBeVisible({ timeout: 120_000 });
    await expect(page.getByText('Waiting for a connection', { exact: true })).toHaveCount(0);
    expectOnlyInFlightPartsResent(proxy, inFlight);
    expect(await photosOf(page, guid)).toHaveLength(2);
    rmSync(dir, { recursive: true, force: true });
  });

  test('an accidental sign-out loses no queued photo: another photographer on the device sees none, its owner signing in again sends them', async () => {
    test.setTimeout(180_000);
    const dir = photoDir();
    const photos = await smallPhotos(dir, 3);
    // A crawling uplink: the photos are still on their way when the photographer signs out.
    proxy.throttle = 20_000;
    const guid = await newOrder(page);
    await page.getByLabel(SELECT).setInputFiles([...photos, textNamedJpg(dir)]);
    await expect(page.getByText('1 photo rejected')).toBeVisible();
    await expect(indicator(page)).toContainText('3 uploads waiting to be sent');
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    // Their photos in orders and REJECTED list are forgotten; the queued photos are kept whole.
    await expect.poll(async () => (await idbRows(page, 'rejections')).length).toBe(0);
    expect(await idbRows(page, 'photos')).toHaveLength(0);
    expect(await idbRows(page, 'uploads')).toHaveLength(3);
    expect(await idbRows(page, 'uploadFiles')).toHaveLength(3);

    // Another photographer on the same laptop: nothing of the first one's waits, nothing is sent.
    const other = { email: `other-${Date.now()}@studio.example`, password: 'tintype-portrait-9' };
    const created = await page.request.post('/api/v2/users', {
      data: { email: other.email, first_name: 'Julia', last_name: 'Cameron', password: other.password, password_confirmation: other.password },
    });
    expect(created.ok()).toBe(true);
    proxy.throttle = 0;
    const sentBefore = proxy.puts.length;
    await signIn(page, other);
    await expect(indicator(page)).toContainText('All changes sent');
    // They send a photo of their own: once it has arrived the queue has run a whole send, and the
    // first photographer's photos did not go with it (one PUT, theirs).
    await newOrder(page);
    await page.getByLabel(SELECT).setInputFiles(await smallPhotos(dir, 1, 'OTHER_'));
    await expect(page.getByText('1 of 1 photos uploaded')).toBeVisible({ timeout: 60_000 });
    expect(proxy.puts.length).toBe(sentBefore + 1);
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login$/);

    // The photographer back: the photos go by themselves and arrive once each.
    await signIn(page);
    await expect.poll(async () => (await photosOf(page, guid)).length, { timeout: 60_000 }).toBe(3);
    await page.goto(`/lab-orders/${guid}/upload-progress`);
    await expect(page.getByText('3 of 3 photos uploaded')).toBeVisible();
    await expect(indicator(page)).toContainText('All changes sent');
    rmSync(dir, { recursive: true, force: true });
  });

  test('an expired part URL is renewed without restarting the file', async () => {
    const dir = photoDir();
    const [photo] = await largePhotos(dir, 1);
    const renewals: unknown[] = [];
    page.on('request', (r) => {
      const body = r.postDataJSON() as { part_numbers?: number[] } | null;
      if (r.url().endsWith('/create_presigned_url') && body?.part_numbers) renewals.push(body);
    });
    // The first PUT of part 2 finds its URL past its 15 minutes.
    let expired = false;
    proxy.expire = (url) => {
      if (expired || !partOf(url)?.endsWith('#2')) return false;
      expired = true;
      return true;
    };
    const guid = await newOrder(page);
    await page.getByLabel(SELECT).setInputFiles([photo ?? '']);
    await expect(page.getByText('1 of 1 photos uploaded')).toBeVisible({ timeout: 60_000 });

    expect(expired).toBe(true);
    expect(renewals).toEqual([expect.objectContaining({ part_numbers: [2] })]);
    // Each part kept once: part 2 from its renewed URL, part 1 never sent again.
    const stored = [...storedParts(proxy)];
    expect(stored.filter(([part]) => part.endsWith('#1'))).toEqual([[expect.any(String), 1]]);
    expect(stored.filter(([part]) => part.endsWith('#2'))).toEqual([[expect.any(String), 1]]);
    expect(await photosOf(page, guid)).toHaveLength(1);
    rmSync(dir, { recursive: true, force: true });
  });
});

test.describe('closing the browser', () => {
  test('photos still queued when the browser closes arrive when it opens again on the same profile', async ({ baseURL, request }) => {
    // Two browser starts and three 18 MB photos at a slow uplink.
    test.setTimeout(180_000);
    const proxy = new StorageProxy({ target: baseURL ?? '' });
    await proxy.start();
    const profile = mkdtempSync(join(tmpdir(), 'lab-e2e-profile-'));
    const dir = photoDir();
    const photos = await largePhotos(dir, 3);
    const open = (): Promise<BrowserContext> =>
      chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, baseURL: proxy.origin });

    let context = await open();
    let page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/login');
    await signIn(page);
    const token = (await storedToken(page)) ?? '';
    proxy.throttle = 2_000_000;
    const guid = await newOrder(page);
    await page.getByLabel(SELECT).setInputFiles(photos);
    await expect.poll(async () => (await idbRows<Part>(page, 'uploadParts')).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
    await context.close();
    expect((await serverPhotos(request, token, guid)).length).toBeLessThan(3);

    // The next morning: the app opens on its list, not on the upload page, and the photos go.
    proxy.throttle = 0;
    context = await open();
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/lab-orders');
    await expect.poll(async () => (await serverPhotos(request, token, guid)).length, { timeout: 120_000 }).toBe(3);
    await expect(indicator(page)).toContainText('All changes sent');
    await context.close();
    await proxy.stop();
    rmSync(profile, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });
});
