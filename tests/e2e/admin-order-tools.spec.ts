/**
 * Issue 13, more of the admin panel against the real lab (docs/orders.md §6; docs/api.md §6): EDIT
 * ADDRESS with the form's checks and the history; SEND TO VENDOR against a local receiver that
 * fails twice first, the panel following the lab's job until the send is received.
 */
import { createServer, type Server } from 'node:http';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { addLineItems, cartWithPhotos, type Cart } from './cart-fixtures.ts';
import { signIn } from './helpers.ts';
import { expectAccessible } from './screens.ts';

// An upload, a sign-up and the lab's answers on a machine shared with other runs.
test.setTimeout(120_000);

const panel = (page: Page) => page.getByRole('complementary', { name: 'Admin panel' });

async function adminOn(browser: Browser, cart: Cart) {
  const context = await browser.newContext();
  const admin = await context.newPage();
  await admin.goto('/login');
  await signIn(admin);
  await admin.goto(`/lab-orders/${cart.orderGuid}`);
  await expect(panel(admin).getByText('Dorothea Lange')).toBeVisible();
  return { admin, context };
}

/** The panel at the phone's width and the desktop's, kept for a person to look at. */
async function screenshots(page: Page, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await panel(page).screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
}

test('an admin adds and corrects the shipping address: the form names what is missing, the order and its history show the change', async ({ page, browser }) => {
  const cart = await cartWithPhotos(page, [{ name: 'RED_0001.jpg', colour: 'red' }]);
  await addLineItems(page.request, cart, [{ photo: 'RED_0001.jpg', paper: 'Lustre', size: '8x10' }]);
  const { admin, context } = await adminOn(browser, cart);
  const tools = panel(admin);
  const ship = tools.getByRole('region', { name: 'Shipping address' });
  await expect(ship.getByText('No shipping address yet.')).toBeVisible();

  await ship.getByRole('button', { name: 'ADD ADDRESS' }).click();
  const form = ship.getByRole('form', { name: 'Edit shipping address' });
  await form.getByLabel('Recipient').fill('Dorothea Lange');
  await form.getByLabel('Street address', { exact: true }).fill('12 Darkroom Lane');
  // Issue 31: a sixth digit is kept and said as it is typed, not cut off.
  await form.getByLabel('Zip').fill('381030');
  await expect(form.getByLabel('Zip')).toHaveValue('381030');
  await expect(form.getByLabel('Zip')).toHaveAccessibleDescription('The zip code is 5 digits.');
  await form.getByLabel('Zip').fill('381');
  await form.getByRole('button', { name: 'SAVE ADDRESS' }).click();
  await expect(form.getByRole('alert')).toHaveText('The address is not saved: Enter the city. Enter the state. The zip code is 5 digits.');
  await expect(form.getByLabel('City')).toBeFocused();
  await expect(form.getByLabel('Zip')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('Zip')).toHaveAccessibleDescription('The zip code is 5 digits.');
  await screenshots(admin, 'address-form-problems');
  await expectAccessible(admin, 'admin panel, address form with problems');

  await form.getByLabel('City').fill('Memphis');
  await form.getByLabel('State').fill('TN');
  await form.getByLabel('Zip').fill('38103');
  await form.getByRole('button', { name: 'SAVE ADDRESS' }).click();
  await expect(form).toHaveCount(0);
  await expect(ship.getByText('12 Darkroom Lane')).toBeVisible();
  await expect(admin.getByRole('region', { name: 'Summary' }).getByText('Memphis, TN 38103')).toBeVisible();
  const history = tools.getByRole('region', { name: 'History' }).getByRole('listitem');
  await expect(history.first()).toContainText('Shipping address: — → Dorothea Lange, 12 Darkroom Lane, Memphis, TN 38103');
  await expect(history.first()).toContainText('Admin');

  // A correction: the form starts from the address on the order.
  await ship.getByRole('button', { name: 'EDIT ADDRESS' }).click();
  await expect(form.getByLabel('Street address', { exact: true })).toHaveValue('12 Darkroom Lane');
  await form.getByLabel('Street address 2 (optional)').fill('Studio B');
  await form.getByRole('button', { name: 'SAVE ADDRESS' }).click();
  await expect(ship.getByText('Studio B')).toBeVisible();
  await expect(history.first()).toContainText('12 Darkroom Lane, Studio B, Memphis');
  await screenshots(admin, 'address-saved');

  // Once shipped, the address stays as it was. (Unpaid, the move asks the admin why.)
  await tools.getByLabel('Status', { exact: true }).selectOption('shipped');
  const why = tools.getByRole('form', { name: 'Reason for an unpaid order' });
  await why.getByRole('textbox', { name: 'Reason' }).fill('Test print');
  await screenshots(admin, 'unpaid-reason');
  await expectAccessible(admin, 'the reason asked for an unpaid order');
  await admin.setViewportSize({ width: 1280, height: 900 });
  await why.getByRole('button', { name: 'SET SHIPPED' }).click();
  await expect(ship.getByText('The address stays as it was once the order has shipped or is cancelled.')).toBeVisible();
  await expect(ship.getByRole('button', { name: 'EDIT ADDRESS' })).toHaveCount(0);

  // The photographer sees the corrected address on their order.
  await page.goto(`/lab-orders/${cart.orderGuid}`);
  await expect(page.getByRole('region', { name: 'Summary' }).getByText('Studio B')).toBeVisible();
  await context.close();
});

test('SEND TO VENDOR: the vendor fails twice, the lab tries again, the panel shows when it was received', async ({ page, browser }) => {
  const bodies: string[] = [];
  const receiver: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push(body);
      // Down for the first two tries, as a vendor mid-deploy would be.
      res.statusCode = bodies.length <= 2 ? 503 : 200;
      res.end(bodies.length <= 2 ? 'down' : '{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(Number(process.env.E2E_VENDOR_PORT), '127.0.0.1', resolve));
  try {
    const cart = await cartWithPhotos(page, [{ name: 'BLUE_0002.jpg', colour: 'blue' }]);
    await addLineItems(page.request, cart, [{ photo: 'BLUE_0002.jpg', paper: 'Metallic', size: '5x7', quantity: 2 }]);
    const { admin, context } = await adminOn(browser, cart);
    const tools = panel(admin);
    const vendor = tools.getByRole('status', { name: 'Vendor send' });
    await expect(vendor).toContainText('Not sent to a vendor yet.');

    await tools.getByRole('button', { name: 'SEND TO VENDOR' }).click();
    // No reload: the panel follows the lab's job until the vendor has the order.
    await expect(vendor).toContainText(/Last sent to the vendor [A-Z]+ \d{1,2}, \d{4}/, { timeout: 60_000 });
    await expect(tools.getByRole('button', { name: 'SEND AGAIN' })).toBeEnabled();
    const history = tools.getByRole('region', { name: 'History' }).getByRole('listitem');
    await expect(history.first()).toContainText('Received by the vendor');
    await expect(history.filter({ hasText: /^Send failed \(try \d of 9\): the vendor answered HTTP 503/ })).toHaveCount(2);

    // The receiver got the order three times, the same send each time.
    expect(bodies).toHaveLength(3);
    for (const body of bodies) {
      const sent = JSON.parse(body) as { order: { guid: string; line_items: { quantity: number }[] } };
      expect(sent.order.guid).toBe(cart.orderGuid);
      expect(sent.order.line_items.map((l) => l.quantity)).toEqual([2]);
    }
    await screenshots(admin, 'vendor-sent');

    // How a send that ran out of tries looks (the lab's real answer, its status as a failed send ends).
    await admin.route(`**/api/v2/lab_orders/${cart.orderGuid}`, async (route) => {
      const response = await route.fetch();
      const json = (await response.json()) as { data: { attributes: Record<string, unknown> } };
      json.data.attributes.vendor_send_status = { state: 'failed', detail: 'Vendor send failed after 9 tries: the vendor answered HTTP 503', at: new Date().toISOString() };
      await route.fulfill({ response, json });
    });
    await admin.reload();
    await expect(panel(admin).getByRole('status', { name: 'Vendor send' })).toContainText('Vendor send failed after 9 tries: the vendor answered HTTP 503');
    await expect(panel(admin).getByRole('button', { name: 'SEND AGAIN' })).toBeEnabled();
    await expectAccessible(admin, 'admin panel, vendor send failed');
    await screenshots(admin, 'vendor-failed');
    await context.close();
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
