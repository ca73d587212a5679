/**
 * Issue 13: the photographer chooses COLOUR CORRECTION per order while it is open (on the order
 * detail and at checkout), and the lab sees 'Print as is' on the admin card and the admin panel.
 */
import { expect, test } from '@playwright/test';
import { savedCard, shopperWithCart } from './checkout-fixtures.ts';
import { signIn } from './helpers.ts';
import { expectAccessible } from './screens.ts';

test.setTimeout(120_000);

test('the photographer chooses Print as is; checkout and the lab show it', async ({ page, browser }) => {
  const shopper = await shopperWithCart(page);
  const { cart } = shopper;
  await page.goto(`/lab-orders/${cart.orderGuid}`);
  const choice = page.getByRole('group', { name: 'COLOUR CORRECTION' });
  await expect(choice.getByRole('radio', { name: 'Lab corrects colour' })).toBeChecked();
  await choice.getByRole('radio', { name: 'Print as is' }).check();
  await expect(page.getByText('Colour correction: Print as is.')).toBeVisible();
  await expect(choice.getByRole('radio', { name: 'Print as is' })).toBeChecked();
  await expect(page.getByRole('region', { name: 'SUMMARY' }).getByText('Print as is', { exact: true })).toBeVisible();
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await expectAccessible(page, '/order-detail-colour-choice');
  }

  // The same choice at checkout, where the order's other choices are made.
  await page.goto(`/lab-orders/${cart.orderGuid}/checkout-details`);
  const atCheckout = page.getByRole('group', { name: 'COLOUR CORRECTION' });
  await expect(atCheckout.getByRole('radio', { name: 'Print as is' })).toBeChecked();
  await atCheckout.getByRole('radio', { name: 'Lab corrects colour' }).check();
  await expect(atCheckout.getByRole('radio', { name: 'Lab corrects colour' })).toBeChecked();
  await atCheckout.getByRole('radio', { name: 'Print as is' }).check();
  await expect(atCheckout.getByRole('radio', { name: 'Print as is' })).toBeChecked();
  // The choice shows at once while it saves (the radios wait meanwhile): the lab has it once saved.
  const labChoice = async () => {
    const lab = await page.request.get(`/api/v2/lab_orders/${cart.orderGuid}/retrieve_full_order`, { headers: { token: cart.token } });
    return ((await lab.json()) as { data: { attributes: { color_correction: string } } }).data.attributes.color_correction;
  };
  await expect(atCheckout.getByRole('radio', { name: 'Lab corrects colour' })).toBeEnabled();
  expect(await labChoice()).toBe('as_is');

  // Paid: the choice is kept and no longer offered.
  const headers = { token: cart.token };
  const card = await savedCard(page.request, cart.token);
  for (const [type, value] of [['used_saved_card', card.id], ['local_pickup', true]] as const) {
    expect((await page.request.patch(`/api/v2/lab_orders/${cart.orderGuid}`, { headers, data: { type, value } })).ok()).toBe(true);
  }
  expect((await page.request.post(`/api/v2/lab_orders/${cart.orderGuid}/checkout`, { headers, data: { save_card: false } })).status()).toBe(200);
  await page.goto(`/lab-orders/${cart.orderGuid}`);
  await expect(page.getByRole('region', { name: 'SUMMARY' }).getByText('Print as is', { exact: true })).toBeVisible();
  await expect(page.getByRole('group', { name: 'COLOUR CORRECTION' })).toHaveCount(0);
  const name = (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';

  // The lab: the admin card in the orders list, and the admin panel of the detail.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto('/login');
  await signIn(admin);
  await admin.goto('/lab-orders');
  await admin.getByRole('searchbox', { name: 'Search by Order Name or Status' }).fill(name);
  const adminCard = admin.getByRole('article', { name });
  await expect(adminCard).toContainText('PRINT AS IS (NO COLOUR CORRECTION)');
  await admin.goto(`/lab-orders/${cart.orderGuid}`);
  await expect(admin.getByRole('complementary', { name: 'Admin panel' }).getByText('COLOUR CORRECTION: PRINT AS IS', { exact: true })).toBeVisible();
  for (const width of [375, 1280]) {
    await admin.setViewportSize({ width, height: 800 });
    await expectAccessible(admin, '/admin-order-colour');
  }
  await adminContext.close();
});
