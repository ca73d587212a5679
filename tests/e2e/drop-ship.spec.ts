/**
 * Issue 34, the all-in cost: a photographer chooses OVERNIGHT and ships straight to a client with a
 * blind packing slip in the studio's name, and
 * the same figures, to the cent, are on the final review, the card's charge (the sandbox
 * provider's record), the receipt mail (the lab's mail outbox) and the order detail. Checkout asks
 * for none of the studio's addresses, and the admin's SHIP TO corrects the client's.
 *
 * The spec starts its own server, its catalogue loaded by `npm run catalogue:load` with prices of
 * its own (as a lab does), so that after the order it can stop it and read the charge and the
 * mail from the lab's database; the suite's e2e server is left alone.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { defaultCatalogue } from '../../server/catalogue/default-catalogue.ts';
import { openDatabase } from '../../server/db/client.ts';
import { mailOutbox, sandboxCharges } from '../../server/db/schema.ts';
import { formatMoney, toCents } from '../../src/domain/money.ts';
import { GOOD_CARD, PHOTO, enterCard, figure, settled, shopperWithCart } from './checkout-fixtures.ts';
import { freePort, serverStarted, signIn } from './helpers.ts';
import { expectAccessible } from './screens.ts';

// An upload, a sign-up, a checkout, and a server of its own on a machine shared with other runs.
test.setTimeout(180_000);

// The lab's prices in this spec's catalogue: none of them the defaults, so a figure from anywhere
// else would show.
const OVERNIGHT = 44.95;
const DROP_SHIP_FEE = 6.25;
const CLIENT = { name: 'Imogen Cunningham', street: '88 Magnolia Ave', city: 'Portland', state: 'OR', zip: '97205' };

let server: ChildProcess;
let dataDir = '';
let base = '';

test.beforeAll(async () => {
  test.setTimeout(150_000);
  dataDir = mkdtempSync(join(tmpdir(), 'lab-e2e-drop-ship-'));
  const file = join(dataDir, 'prices.json');
  writeFileSync(file, JSON.stringify({ ...defaultCatalogue(), shipping_speeds: { standard: 10, two_day: 27.5, overnight: OVERNIGHT }, drop_ship_fee: DROP_SHIP_FEE }));
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_NO_WARNINGS: '1' };
  const loaded = spawnSync(process.execPath, ['scripts/lab-command.mjs', 'catalogue', 'load', file], { env, encoding: 'utf8' });
  expect(loaded.status, loaded.stderr).toBe(0);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn('node_modules/.bin/tsx', ['server/main.ts'], { env: { ...env, PORT: String(port), HOST: '127.0.0.1', CLIENT_DIR: 'dist' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  server.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  await serverStarted(base, () => stderr);
});

test.afterAll(() => {
  server?.kill('SIGTERM');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The lab's charge and receipt of the order, read from its database once the server has stopped. */
async function labRecords(orderGuid: string, email: string) {
  const stopped = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await stopped;
  const database = await openDatabase({ dataDir });
  try {
    const charges = (await database.db.select().from(sandboxCharges)).filter((c) => c.metadata.lab_order === orderGuid);
    const mails = (await database.db.select().from(mailOutbox)).filter((m) => m.toAddress === email && m.subject.startsWith('Receipt'));
    return { charges, receipts: mails.map((m) => m.bodyText) };
  } finally {
    await database.close();
  }
}

const screenshot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

test('an overnight drop-ship order with a blind slip is priced to the cent in final review, the charge, the receipt and the order detail', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  // Prints with a mat: prints and finishing are separate lines.
  const s = await shopperWithCart(page, [{ photo: PHOTO, paper: 'Lustre', size: '8x10', quantity: 2, mat: true }]);
  // The studio's name goes on the blind packing slip it will choose.
  await page.goto('/account');
  const basic = page.getByRole('region', { name: 'BASIC INFORMATION' });
  await basic.getByLabel('Business name').fill('Rosa Studio');
  await basic.getByRole('button', { name: 'UPDATE' }).click();
  await expect(page.getByRole('region', { name: 'PACKING SLIP' }).getByText('Business name: Rosa Studio')).toBeVisible();
  await page.goto(`/lab-orders/${s.cart.orderGuid}/checkout-details`);
  await settled(page);

  // The speeds with the lab's prices.
  const overnight = page.getByRole('radio', { name: new RegExp(`^OVERNIGHT ${formatMoney(toCents(OVERNIGHT)).replace('$', '\\$')}`) });
  await expect(page.getByRole('radio', { name: /^STANDARD \$10\.00/ })).toBeChecked();
  await overnight.click();
  await settled(page);
  await expect(overnight).toBeChecked();
  // Shipped to the studio until it is a drop-ship: with no saved address, the section asks for one.
  const shippingAddress = page.getByRole('region', { name: 'SHIPPING ADDRESS' });
  await expect(shippingAddress.getByRole('form', { name: 'New address' })).toBeVisible();
  await page.getByRole('checkbox', { name: `Ship this order straight to my client (${formatMoney(toCents(DROP_SHIP_FEE))} drop-ship fee per order)` }).check();
  const form = page.getByRole('form', { name: 'Client address' });
  await form.getByLabel("Client's name").fill(CLIENT.name);
  await form.getByLabel('Street address', { exact: true }).fill(CLIENT.street);
  await form.getByLabel('City').fill(CLIENT.city);
  await form.getByLabel('State').fill(CLIENT.state);
  await form.getByLabel('Zip').fill(CLIENT.zip);
  await form.getByRole('button', { name: 'SHIP TO THIS CLIENT' }).click();
  await settled(page);
  await expect(page.getByLabel('Client address')).toContainText(CLIENT.name);
  // The parcel goes to the client: the section names their address and asks for none of the studio's.
  await expect(shippingAddress).toContainText(`Ships to your client: ${CLIENT.name}, ${CLIENT.street}, ${CLIENT.city}, ${CLIENT.state} ${CLIENT.zip}`);
  await expect(shippingAddress.getByRole('form', { name: 'New address' })).toHaveCount(0);
  await expect(shippingAddress.getByRole('button', { name: 'NEW ADDRESS' })).toHaveCount(0);
  await expect(shippingAddress.getByRole('radio')).toHaveCount(0);
  // A blind slip in the studio's name: it costs nothing, so no figure moves.
  const slip = page.getByRole('region', { name: 'BLIND PACKING SLIP' }).getByRole('checkbox', { name: 'Pack with my own packing slip' });
  // The box shows the lab's choice, not the click: it ticks once the lab has answered.
  await slip.click();
  await expect(slip).toBeChecked();
  await enterCard(page, GOOD_CARD);
  await settled(page);
  for (const width of [375, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `checkout-details-${width}`);
    // The page's fixed header covers the top of a full-page shot: the section on its own too.
    await shippingAddress.screenshot({ path: test.info().outputPath(`shipping-address-${width}.png`) });
    await expectAccessible(page, `checkout-details with a drop-ship`);
  }

  // Final review: every line of the charge, each the lab's, adding up to the cent.
  await page.getByRole('button', { name: 'REVIEW & CONFIRM' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'REVIEW & CONFIRM' })).toBeVisible();
  await settled(page);
  const answer = await page.request.get(`/api/v2/lab_orders/${s.cart.orderGuid}/retrieve_full_order`, { headers: { token: s.cart.token } });
  const lab = ((await answer.json()) as { data: { attributes: Record<string, number> } }).data.attributes;
  const cents = (label: string) => toCents(lab[label] ?? Number.NaN);
  expect(cents('finishing_total')).toBeGreaterThan(0);
  expect(cents('prints_total') + cents('finishing_total')).toBe(cents('subtotal'));
  const total = cents('subtotal') + toCents(OVERNIGHT) + toCents(DROP_SHIP_FEE);
  expect(cents('total')).toBe(total);
  const lines: [string, number][] = [
    ['PRINTS', cents('prints_total')],
    ['FINISHING', cents('finishing_total')],
    ['SHIPPING', toCents(OVERNIGHT)],
    ['DROP-SHIP FEE', toCents(DROP_SHIP_FEE)],
    ['TOTAL', total],
  ];
  for (const [label, amount] of lines) await expect(figure(page, label)).toHaveText(formatMoney(amount));
  await expect(page.locator('.figure-row').filter({ hasText: 'SHIPPING' })).toContainText('OVERNIGHT');
  await expect(page.locator('.final-address')).toContainText(`${CLIENT.name}${CLIENT.street}`);
  await expect(page.getByRole('region', { name: 'Where it goes and how it is paid' })).toContainText('PACKING SLIPYours (blind)');
  for (const width of [375, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `final-review-${width}`);
    await expectAccessible(page, `final-review with a drop-ship`);
  }
  await page.getByRole('button', { name: 'PLACE ORDER' }).click();
  await expect(page).toHaveURL(/\/lab-order-confirmation/);

  // The order detail: the same lines, the client as the ship-to.
  await page.goto(`/lab-orders/${s.cart.orderGuid}`);
  const detail = (label: string) => page.getByRole('group', { name: 'Order figures' }).locator(`dt:text-is("${label}") + dd`);
  for (const [label, amount] of lines) await expect(detail(label === 'SHIPPING' ? 'SHIPPING (OVERNIGHT)' : label)).toHaveText(formatMoney(amount));
  await expect(page.getByRole('region', { name: 'SUMMARY' }).getByLabel('Client address')).toContainText(CLIENT.name);
  await context.close();

  // The admin's SHIP TO is the client's address, said so, and its correction goes there.
  const adminContext = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 900 } });
  const admin = await adminContext.newPage();
  await admin.goto('/login');
  await signIn(admin);
  await admin.goto(`/lab-orders/${s.cart.orderGuid}`);
  const panel = admin.getByRole('complementary', { name: 'Admin panel' });
  const shipTo = panel.getByRole('region', { name: 'Shipping address' });
  await expect(shipTo).toContainText("Drop-ship: the parcel goes to the photographer's client, not to the studio.");
  await expect(shipTo).toContainText(CLIENT.street);
  await shipTo.getByRole('button', { name: "EDIT CLIENT'S ADDRESS" }).click();
  const edit = shipTo.getByRole('form', { name: "Edit client's address" });
  await expect(edit.getByLabel('Recipient')).toHaveValue(CLIENT.name);
  await edit.getByLabel('Street address 2 (optional)').fill('Unit 3');
  for (const width of [375, 1366]) {
    await admin.setViewportSize({ width, height: 900 });
    await panel.screenshot({ path: test.info().outputPath(`admin-client-address-${width}.png`) });
  }
  await edit.getByRole('button', { name: 'SAVE ADDRESS' }).click();
  await expect(edit).toHaveCount(0);
  await expect(shipTo).toContainText('Unit 3');
  await expect(admin.getByRole('region', { name: 'SUMMARY' }).getByLabel('Client address')).toContainText('Unit 3');
  await expect(panel.getByRole('region', { name: 'History' }).getByRole('listitem').first()).toContainText(`Client's address (drop-ship): ${CLIENT.name}, ${CLIENT.street}, ${CLIENT.city}`);
  await adminContext.close();

  // The card was charged that total once; the receipt says every line.
  const { charges, receipts } = await labRecords(s.cart.orderGuid, s.email);
  expect(charges.map((c) => [c.amountCents, c.status])).toEqual([[total, 'succeeded']]);
  expect(receipts).toHaveLength(1);
  const receipt = receipts[0] ?? '';
  for (const [words, amount] of [['Prints', cents('prints_total')], ['Finishing', cents('finishing_total')], ['Shipping (OVERNIGHT)', toCents(OVERNIGHT)], ['Drop-ship fee', toCents(DROP_SHIP_FEE)], ['Total', total]] as const) {
    expect(receipt).toMatch(new RegExp(`${words.replace(/[()]/g, '\\$&')}:\\s+${formatMoney(amount).replace('$', '\\$')}`));
  }
  expect(receipt).toContain(`Your client: ${CLIENT.name}`);
});
