/**
 * Issue 34, discount codes on screen against the real lab: an admin makes a code on the admin
 * screen (each field checked where it is typed), a photographer uses it at checkout and sees the
 * discount, the admin sees the use counted and pauses the code, and the photographer's next order
 * is refused with the reason.
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { addLineItems, orderWithPhotos } from './cart-fixtures.ts';
import { PHOTO, addAddress, dollars, figure, labCheckout, savedCard, settled, shopperWithCart } from './checkout-fixtures.ts';
import { signIn } from './helpers.ts';
import { expectAccessible } from './screens.ts';

// An upload, a sign-up, a checkout and two browsers on a machine shared with other runs.
test.setTimeout(180_000);

const row = (page: Page, code: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: code, exact: true }) });
const cell = (page: Page, code: string, column: number) => row(page, code).getByRole('cell').nth(column);

test('an admin makes a code on screen, a photographer uses it at checkout, the admin sees the use and pauses it, and the next order is refused', async ({ page, browser }) => {
  const code = `SPRING-${randomBytes(3).toString('hex').toUpperCase()}`;
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto('/login');
  await signIn(admin);
  await admin.setViewportSize({ width: 1366, height: 900 });
  await admin.getByRole('link', { name: 'DISCOUNT CODES' }).click();
  await expect(admin.getByRole('heading', { level: 1, name: 'DISCOUNT CODES' })).toBeVisible();
  await expect(admin.getByRole('status').filter({ hasText: 'loading' })).toHaveCount(0);

  // Each field is checked when left, its message beside it; CREATE CODE sends nothing while one is wrong.
  const codeBox = admin.getByLabel('Code', { exact: true });
  await codeBox.fill('ab');
  await admin.getByLabel('Percent off').fill('150');
  await admin.getByLabel('Usage limit (optional)').fill('0');
  await admin.getByLabel('Usage limit (optional)').blur();
  await expect(codeBox).toHaveAccessibleDescription('A discount code is 4 to 40 letters, digits or dashes.');
  await expect(admin.getByLabel('Percent off')).toHaveAccessibleDescription('The percent is a whole number from 1 to 100.');
  await expect(admin.getByLabel('Usage limit (optional)')).toHaveAccessibleDescription('The usage limit is a whole number of 1 or more.');
  await admin.getByRole('button', { name: 'CREATE CODE' }).click();
  await expect(row(admin, 'AB')).toHaveCount(0);
  for (const width of [375, 1366]) {
    await admin.setViewportSize({ width, height: 900 });
    await expectAccessible(admin, `discount codes form problems at ${width}`);
    await admin.screenshot({ path: test.info().outputPath(`discount-codes-problems-${width}.png`), fullPage: true });
  }

  await codeBox.fill(code.toLowerCase());
  await admin.getByLabel('Percent off').fill('10');
  await admin.getByLabel('Usage limit (optional)').fill('');
  await admin.getByRole('button', { name: 'CREATE CODE' }).click();
  await expect(admin.getByText(`Discount code ${code} created.`)).toBeVisible();
  await expect(cell(admin, code, 1)).toHaveText('ACTIVE');
  await expect(cell(admin, code, 3)).toHaveText('0');
  // The same code again is refused beside the field, nothing saved.
  await codeBox.fill(code);
  await admin.getByLabel('Percent off').fill('20');
  await admin.getByRole('button', { name: 'CREATE CODE' }).click();
  await expect(codeBox).toHaveAccessibleDescription(`The code ${code} already exists.`);
  await expect(cell(admin, code, 0)).toHaveText('10% off');

  // The photographer applies it at checkout and pays with the discount.
  const s = await shopperWithCart(page);
  const card = await savedCard(page.request, s.cart.token);
  await page.goto(`/lab-orders/${s.cart.orderGuid}/checkout-details`);
  await expect(page.getByRole('heading', { level: 1, name: 'CHECKOUT' })).toBeVisible();
  await settled(page);
  await addAddress(page);
  await page.getByRole('radio', { name: card.mask }).click();
  await settled(page);
  await page.getByLabel('Discount code').fill(code.toLowerCase());
  await page.getByRole('button', { name: 'APPLY CODE' }).click();
  await settled(page);
  await expect(page.getByText(`CODE APPLIED: ${code}`)).toBeVisible();
  const shown = await labCheckout(page.request, s.cart);
  expect(shown.discount).toBeCloseTo(shown.subtotal / 10, 2);
  await expect(figure(page, 'DISCOUNT')).toHaveText(`-${dollars(shown.discount)}`);
  await page.getByRole('button', { name: 'REVIEW & CONFIRM' }).click();
  await settled(page);
  await page.getByRole('button', { name: 'PLACE ORDER' }).click();
  await expect(page).toHaveURL(/\/lab-order-confirmation/);
  const paid = await labCheckout(page.request, s.cart);
  expect(paid.status).toBe('paid');
  expect(paid.discount_code?.code).toBe(code);

  // The admin sees the use counted, then pauses the code.
  await admin.reload();
  await expect(cell(admin, code, 3)).toHaveText('1');
  await expect(cell(admin, code, 4)).toHaveText('1');
  await expect(cell(admin, code, 5)).toHaveText(dollars(paid.discount));
  await admin.getByRole('button', { name: `PAUSE ${code}` }).click();
  await expect(admin.getByText(`Discount code ${code} paused.`)).toBeVisible();
  await expect(cell(admin, code, 1)).toHaveText('PAUSED');
  await expect(admin.getByRole('button', { name: `RESUME ${code}` })).toBeVisible();
  for (const width of [375, 1366]) {
    await admin.setViewportSize({ width, height: 900 });
    await expectAccessible(admin, `discount codes list at ${width}`);
    await admin.screenshot({ path: test.info().outputPath(`discount-codes-${width}.png`), fullPage: true });
  }

  // The photographer's next order: the code is refused with the reason, and APPLY stays off.
  const next = await orderWithPhotos(page, s.cart.token, [{ name: PHOTO, colour: 'blue' }]);
  await addLineItems(page.request, next, [{ photo: PHOTO, paper: 'Lustre', size: '8x10', quantity: 1 }]);
  await page.goto(`/lab-orders/${next.orderGuid}/checkout-details`);
  await expect(page.getByRole('heading', { level: 1, name: 'CHECKOUT' })).toBeVisible();
  await settled(page);
  await page.getByLabel('Discount code').fill(code);
  await expect(page.getByText(`The discount code ${code} is paused by the lab.`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'APPLY CODE' })).toBeDisabled();
  // The screen is the admins': a photographer gets the lab's refusal and no form.
  await page.goto('/discount-codes');
  await expect(page.getByRole('alert')).toContainText('Only lab admins can do that.');
  await expect(page.getByRole('button', { name: 'CREATE CODE' })).toHaveCount(0);
  await adminContext.close();
});
