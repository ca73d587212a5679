/**
 * Issue 13 against the real lab: the photographers list and the admin's tools (docs/orders.md §2, §5;
 * docs/api.md §6): search from 3 characters, credit, password, email in use, approval, log in
 * as and back; and /api-invoices.
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, signIn } from './helpers.ts';
import { WIDTHS, expectAccessible } from './screens.ts';

// Its accessibility sweep at three widths is most of the file's time, and at 4 workers on 2 cores
// every action slows alike: the default limit is too short on a busy machine.
test.setTimeout(120_000);

test('an admin finds a photographer and edits credit, password, email and approval, one field at a time, then logs in as them and back', async ({ page }) => {
  const tag = randomBytes(4).toString('hex');
  const email = `imogen-${tag}@studio.example`;
  const created = await page.request.post('/api/v2/users', {
    data: { email, first_name: 'Imogen', last_name: `Cunningham${tag}`, password: 'platinum-print-7', password_confirmation: 'platinum-print-7' },
  });
  expect(created.ok()).toBe(true);
  await page.goto('/login');
  await signIn(page);
  await page.goto('/photographers');
  await expect(page.getByRole('heading', { level: 1, name: 'PHOTOGRAPHERS' })).toBeVisible();
  const search = page.getByRole('searchbox', { name: 'Search by Photographer Name, Business, or Email' });
  await search.fill(`imogen-${tag}`);
  const rows = page.getByRole('row').filter({ has: page.getByRole('rowheader') });
  await expect(rows).toHaveCount(1);
  const name = `Imogen Cunningham${tag}`;
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page, `photographers at ${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByLabel(`Available credit of ${name}`, { exact: true }).fill('12.50');
  await page.getByRole('button', { name: 'SAVE CREDIT' }).click();
  await expect(rows.first().getByText('$12.50 credit')).toBeVisible();

  await page.getByLabel(`New password for ${name}`, { exact: true }).fill('short');
  await page.getByLabel(`Confirm the new password for ${name}`, { exact: true }).fill('short');
  await page.getByRole('button', { name: 'SAVE PASSWORD' }).click();
  await expect(rows.first().getByRole('alert')).toHaveText('The password must be at least 8 characters.');

  await page.getByLabel(`Email of ${name}`, { exact: true }).fill(DEMO_ADMIN.email);
  await page.getByRole('button', { name: 'SAVE EMAIL' }).click();
  await expect(rows.first().getByRole('alert')).toContainText('Email in use');

  await page.getByLabel(`Approval of ${name}`, { exact: true }).selectOption('not_approved');
  await expect(page.getByText(`${name} is not approved.`)).toBeVisible();
  await page.getByLabel(`Approval of ${name}`, { exact: true }).selectOption('approved');
  await expect(page.getByText(`${name} is approved.`)).toBeVisible();

  // Log in as the photographer: their (empty) orders, until logout returns the admin to /lab-orders.
  await page.getByLabel(`Email of ${name}`, { exact: true }).fill(email);
  await page.getByRole('button', { name: 'LOG IN AS' }).click();
  await expect(page).toHaveURL(/\/lab-orders$/);
  await expect(page.getByText(`Acting as ${name}`)).toBeVisible();
  await expect(page.getByText('No lab orders yet. Start one with NEW LAB ORDER.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'PHOTOGRAPHERS' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/lab-orders$/);
  await expect(page.getByText(/^Acting as/)).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'PHOTOGRAPHERS' })).toBeVisible();
});

test('/api-invoices shows the API orders by month, or that there are none', async ({ page }) => {
  await page.goto('/login');
  await signIn(page);
  await page.goto('/api-invoices');
  await expect(page.getByRole('heading', { level: 1, name: 'API INVOICES' })).toBeVisible();
  await expect(page.getByText('No orders came through the API yet.').or(page.getByRole('table'))).toBeVisible();
  await expectAccessible(page);
});
