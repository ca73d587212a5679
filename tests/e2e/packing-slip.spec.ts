/**
 * The blind packing slip (issue 34, docs/lab-rules.md §9): a photographer sets the business name
 * and uploads a logo on /account (a file that is no image is refused in words), saves a return
 * address, chooses BLIND PACKING SLIP at checkout; the admin sees it on the order's panel and
 * downloads the slip, which names the studio.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { addLineItems, cartWithPhotos } from './cart-fixtures.ts';
import { labCheckout } from './checkout-fixtures.ts';
import { signIn } from './helpers.ts';
import { expectAccessible } from './screens.ts';

// An upload, a sign-up and the lab's answers on a machine shared with other runs.
test.setTimeout(120_000);

const SCREENSHOT_WIDTHS = [375, 1280] as const;

test('a studio sets its slip on /account, chooses it at checkout, and the lab downloads it', async ({ page, browser }) => {
  const cart = await cartWithPhotos(page, [{ name: 'ROSA_0001.jpg', colour: 'green' }]);
  await addLineItems(page.request, cart, [{ photo: 'ROSA_0001.jpg', paper: 'Lustre', size: '8x10', quantity: 2 }]);

  await page.goto('/account');
  const basic = page.getByRole('region', { name: 'BASIC INFORMATION' });
  await basic.getByLabel('Business name').fill('Rosa Studio');
  await basic.getByRole('button', { name: 'UPDATE' }).click();
  const slip = page.getByRole('region', { name: 'PACKING SLIP' });
  await expect(slip.getByText('Business name: Rosa Studio')).toBeVisible();

  const logo = slip.getByLabel('Logo (JPEG or PNG, up to 2 MB)');
  await logo.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('Rosa Studio logo, in words') });
  await expect(slip.getByRole('alert')).toContainText('The logo must be a JPEG or PNG file. This file is a text file.');
  const png = await sharp({ create: { width: 480, height: 160, channels: 4, background: { r: 180, g: 30, b: 90, alpha: 1 } } }).png().toBuffer();
  await logo.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
  await expect(slip.getByRole('img', { name: 'Your logo as the slip shows it' })).toBeVisible();
  await expect(slip.getByRole('alert')).toHaveCount(0);

  const address = slip.getByRole('form', { name: 'Return address' });
  for (const [label, value] of [
    ['Return name', 'Rosa Studio'],
    ['Street', '12 Elm St'],
    ['City', 'Nashville'],
    ['State', 'TN'],
    ['Zip', '37201'],
  ] as const)
    await address.getByLabel(label, { exact: true }).fill(value);
  await address.getByRole('button', { name: 'SAVE RETURN ADDRESS' }).click();
  await expect(page.getByText('Your return address was saved.')).toBeVisible();
  for (const width of SCREENSHOT_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await slip.screenshot({ path: test.info().outputPath(`packing-slip-account-${width}.png`) });
  }
  await expectAccessible(page, 'account with the packing slip');

  await page.goto(`/lab-orders/${cart.orderGuid}/checkout-details`);
  const choice = page.getByRole('region', { name: 'BLIND PACKING SLIP' });
  // A blind slip goes only with a drop-ship: offered once the order ships straight to the client.
  await expect(page.getByRole('heading', { name: 'SHIPPING SPEED' })).toBeVisible();
  await expect(choice).toHaveCount(0);
  await page.getByRole('checkbox', { name: /^Ship this order straight to my client/ }).check();
  const client = page.getByRole('form', { name: 'Client address' });
  await client.getByLabel("Client's name").fill('Jane Client');
  await client.getByLabel('Street address', { exact: true }).fill('9 Oak Ave');
  await client.getByLabel('City').fill('Memphis');
  await client.getByLabel('State').fill('TN');
  await client.getByLabel('Zip').fill('38103');
  await client.getByRole('button', { name: 'SHIP TO THIS CLIENT' }).click();
  await expect(page.getByLabel('Client address')).toContainText('Jane Client');
  await expect(choice).toContainText('Your client sees Rosa Studio with your logo and return address, and the prints in the parcel: no lab name and no prices.');
  // Ticked once the lab has answered (the box shows the lab's choice, not the click).
  const box = choice.getByRole('checkbox', { name: 'Pack with my own packing slip' });
  await box.click();
  await expect(box).toBeChecked();
  await expect.poll(async () => ((await labCheckout(page.request, cart)) as unknown as { blind_slip: boolean }).blind_slip).toBe(true);
  for (const width of SCREENSHOT_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await choice.screenshot({ path: test.info().outputPath(`packing-slip-checkout-${width}.png`) });
  }

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto('/login');
  await signIn(admin);
  await admin.goto(`/lab-orders/${cart.orderGuid}`);
  const tools = admin.getByRole('complementary', { name: 'Admin panel' });
  await expect(tools.getByText(/^BLIND PACKING SLIP: pack the studio's slip/)).toBeVisible();
  const downloading = admin.waitForEvent('download');
  await tools.getByRole('button', { name: 'DOWNLOAD PACKING SLIP' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('packing-slip.pdf');
  const pdf = readFileSync(await download.path()).toString('latin1');
  expect(pdf).toContain('(Rosa Studio) Tj');
  expect(pdf).toContain('(12 Elm St) Tj');
  expect(pdf).not.toMatch(/\$/);
  await adminContext.close();
});
