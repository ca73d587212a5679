/**
 * Issue 13's journeys that the other specs play against recorded answers, here against the real
 * lab: a photographer searches their orders; an admin's urgent section and filters over real
 * orders; the zip's DOWNLOAD ALL holds every original, byte for byte.
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import { unzip } from '../unit/fixtures/unzip.ts';
import { addLineItems, cartWithPhotos } from './cart-fixtures.ts';
import { signIn, storedToken } from './helpers.ts';

// Uploads, sign-ups and the lab's jobs on a machine shared with other runs.
test.setTimeout(150_000);

async function adminPage(browser: Browser) {
  const context = await browser.newContext();
  const admin = await context.newPage();
  await admin.goto('/login');
  await signIn(admin);
  return { admin, context, token: (await storedToken(admin)) ?? '' };
}

const newOrder = async (request: APIRequestContext, token: string, name: string) => {
  const res = await request.post('/api/v2/lab_orders', { headers: { token }, data: { order_name: name } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { data: { attributes: { guid: string } } }).data.attributes.guid;
};

test('a photographer finds their orders by name and by status', async ({ page }) => {
  const cart = await cartWithPhotos(page, [{ name: 'RED_0001.jpg', colour: 'red' }]);
  const tag = randomBytes(3).toString('hex');
  await newOrder(page.request, cart.token, `Smith wedding ${tag}`);
  await newOrder(page.request, cart.token, `Jones family ${tag}`);
  await page.goto('/lab-orders');
  const search = page.getByRole('searchbox', { name: 'Search by Order Name or Status' });
  await expect(page.getByRole('article', { name: `Smith wedding ${tag}` })).toBeVisible();

  await search.fill(`  SMITH WEDDING ${tag} `);
  await expect(page.getByRole('article', { name: `Smith wedding ${tag}` })).toBeVisible();
  await expect(page.getByRole('article', { name: `Jones family ${tag}` })).toHaveCount(0);
  await search.fill('no such order anywhere');
  await expect(page.getByText(/^No orders match your search/)).toBeVisible();
  // By status: every order of this photographer is open.
  await search.fill('open');
  await expect(page.getByRole('article', { name: `Jones family ${tag}` })).toBeVisible();
  await expect(page.getByRole('article', { name: `Smith wedding ${tag}` })).toBeVisible();
  await search.fill('');
  await expect(page.getByRole('article')).toHaveCount(3);
});

test('an admin sees the urgent order above the list, and the filters narrow the real orders', async ({ page, browser }) => {
  const cart = await cartWithPhotos(page, [
    { name: 'RED_0001.jpg', colour: 'red' },
    { name: 'BLUE_0002.jpg', colour: 'blue' },
  ]);
  const tag = randomBytes(3).toString('hex');
  const matted = `Matted ${tag}`;
  const plain = `Plain ${tag}`;
  /** An order of this name with the cart's photos (REORDER shares the stored files) and one line item. */
  const orderWith = async (name: string, item: Parameters<typeof addLineItems>[2][number]) => {
    const copy = await page.request.post(`/api/v2/lab_orders/${cart.orderGuid}/reorder`, { headers: { token: cart.token }, data: { order_name: name } });
    expect(copy.status(), await copy.text()).toBe(201);
    const guid = ((await copy.json()) as { data: { attributes: { guid: string } } }).data.attributes.guid;
    const listed = (await (await page.request.get(`/api/v2/lab_orders/${guid}/lab_order_photographs?per_page=100`, { headers: { token: cart.token } })).json()) as { data: { guid: string; photo_file_name: string }[] };
    await addLineItems(page.request, { ...cart, orderGuid: guid, photos: new Map(listed.data.map((p) => [p.photo_file_name, p.guid])) }, [item]);
    return guid;
  };
  const mattedGuid = await orderWith(matted, { photo: 'RED_0001.jpg', paper: 'Lustre', size: '8x10', mat: true });
  const plainGuid = await orderWith(plain, { photo: 'BLUE_0002.jpg', paper: 'Lustre', size: '5x7' });

  const { admin, context, token } = await adminPage(browser);
  for (const guid of [mattedGuid, plainGuid]) {
    expect((await admin.request.patch(`/api/v2/lab_orders/${guid}`, { headers: { token }, data: { type: 'status', value: 'paid' } })).ok()).toBe(true);
  }
  expect((await admin.request.patch(`/api/v2/lab_orders/${mattedGuid}`, { headers: { token }, data: { type: 'urgent', value: true } })).ok()).toBe(true);
  await admin.goto('/lab-orders');

  const urgent = admin.getByRole('region', { name: 'Urgent Orders:' });
  await expect(urgent.getByRole('article', { name: matted })).toBeVisible();
  await expect(urgent.getByRole('article', { name: plain })).toHaveCount(0);

  const filter = (name: string) => admin.getByRole('group', { name: 'Filters' }).getByRole('button', { name, exact: true });
  await admin.getByRole('searchbox', { name: 'Search by Order Name or Status' }).fill(tag);
  const main = admin.getByRole('main');
  // The urgent order shows twice while the list holds it: in 'Urgent Orders:' and in the list.
  const matteds = main.getByRole('article', { name: matted });
  // HIDE OPEN is on: the two paid orders show, the photographer's open cart does not.
  await expect(filter('HIDE OPEN')).toHaveAttribute('aria-pressed', 'true');
  await expect(main.getByRole('article', { name: plain })).toBeVisible();
  await filter('MATTING').click();
  await expect(main.getByRole('article', { name: plain })).toHaveCount(0);
  await expect(matteds).toHaveCount(2);
  await filter('FRAMING').click();
  // AND-combined: no order of these has a mat and a frame (the urgent section still shows it).
  await expect(matteds).toHaveCount(1);
  await expect(urgent.getByRole('article', { name: matted })).toBeVisible();
  await filter('RESET').click();
  await expect(main.getByRole('article', { name: plain })).toBeVisible();
  await context.close();
});

test('DOWNLOAD ALL: the zip holds every original, byte for byte', async ({ page, browser }) => {
  const cart = await cartWithPhotos(page, [
    { name: 'RED_0001.jpg', colour: 'red' },
    { name: 'BLUE_0002.jpg', colour: 'blue' },
    { name: 'GREEN_0003.jpg', colour: 'green' },
  ]);
  const listed = (await (await page.request.get(`/api/v2/lab_orders/${cart.orderGuid}/lab_order_photographs?per_page=100`, { headers: { token: cart.token } })).json()) as {
    data: { photo_file_name: string; presigned_photo_url: string; size: number }[];
  };
  const originals = new Map<string, Buffer>();
  for (const photo of listed.data) originals.set(photo.photo_file_name, Buffer.from(await (await page.request.get(photo.presigned_photo_url)).body()));

  const { admin, context } = await adminPage(browser);
  await admin.goto(`/lab-orders/${cart.orderGuid}`);
  await admin.getByRole('button', { name: 'CREATE ZIP' }).click();
  const download = admin.getByRole('link', { name: 'DOWNLOAD ALL' });
  await expect(download).toBeVisible({ timeout: 60_000 });
  const zip = await admin.request.get((await download.getAttribute('href')) ?? '');
  expect(zip.ok()).toBe(true);
  const entries = await unzip(Buffer.from(await zip.body()));
  expect([...entries.keys()].sort()).toEqual(['BLUE_0002.jpg', 'GREEN_0003.jpg', 'RED_0001.jpg']);
  for (const [name, bytes] of originals) {
    expect(bytes.length, name).toBe(listed.data.find((p) => p.photo_file_name === name)?.size);
    expect(`${name}: ${String(entries.get(name)?.equals(bytes))}`).toBe(`${name}: true`);
  }
  await context.close();
});
