import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_ADMIN } from './helpers.ts';

const unique = () => randomBytes(4).toString('hex');

async function fillStep1(page: Page, email: string) {
  await page.getByLabel('First name').fill('Vivian');
  await page.getByLabel('Last name').fill('Maier');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Website or social URL (optional)').fill('https://vivianmaier.example');
  await page.getByLabel('Password', { exact: true }).fill('street-photos-1');
  await page.getByLabel('Confirm password').fill('street-photos-1');
}

test('a new photographer signs up without a referral, outside Tennessee, and lands on the orders list', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'SIGN UP' }).click();
  await expect(page).toHaveURL(/\/signup\/1-of-3$/);
  const next = page.getByRole('button', { name: 'NEXT' });
  await expect(next).toBeDisabled();
  await fillStep1(page, `vivian-${unique()}@studio.example`);
  await expect(next).toBeDisabled();
  await page.getByLabel("I agree to the lab's terms of service").check();
  await expect(next).toBeEnabled();
  await next.click();

  await expect(page).toHaveURL(/\/signup\/2-of-3$/);
  await expect(page.getByRole('heading', { name: 'Were you referred by another photographer?' })).toBeVisible();
  await expect(page.getByText('1 • 2 • 3')).toBeVisible();
  await expect(next).toBeDisabled();
  await page.getByLabel('Referred by a photographer').selectOption('NO');
  await next.click();

  await expect(page).toHaveURL(/\/signup\/3-of-3$/);
  await expect(page.getByRole('heading', { name: 'Is your business located in Tennessee?' })).toBeVisible();
  const submit = page.getByRole('button', { name: 'SUBMIT APPLICATION' });
  await expect(page.getByLabel('Business in Tennessee')).toHaveValue('YES');
  await expect(submit).toBeDisabled();
  await page.getByLabel('Business in Tennessee').selectOption('NO');
  await submit.click();

  await expect(page).toHaveURL(/\/signup\/confirmation$/);
  await expect(page.getByText('Congratulations! You can now sign in and place orders')).toBeVisible();
  await page.getByRole('link', { name: 'GO TO YOUR ORDERS' }).click();
  await expect(page.getByRole('heading', { name: 'ORDERS', exact: true })).toBeVisible();
  // A photographer is no admin.
  await expect(page.getByRole('link', { name: 'PHOTOGRAPHERS' })).toHaveCount(0);
});

test("an email in use is refused with the spec's message", async ({ page }) => {
  await page.goto('/signup/1-of-3');
  await fillStep1(page, DEMO_ADMIN.email);
  await page.getByLabel("I agree to the lab's terms of service").check();
  await expect(page.getByText('Email already in use. Please login or reset your password.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'NEXT' })).toBeDisabled();
});

test('arriving from a referral link, with a Tennessee business and its certificate', async ({ page, request }) => {
  // A photographer who refers: signed up, with a code of their own.
  const referrer = await request.post('/api/v2/users', {
    data: { email: `ref-${unique()}@studio.example`, first_name: 'Imogen', last_name: 'Cunningham', password: 'referrer-pass', password_confirmation: 'referrer-pass' },
  });
  const { token, guid } = (await referrer.json()) as { token: string; guid: string };
  const code = `IMOGEN${unique().toUpperCase()}`;
  expect((await request.patch(`/api/v2/users/${guid}`, { data: { referral_code: code }, headers: { token } })).status()).toBe(200);

  await page.goto(`/refer/${code}`);
  await expect(page.getByText(`You were referred by a fellow photographer (code ${code}).`)).toBeVisible();
  await fillStep1(page, `tn-${unique()}@studio.example`);
  await page.getByLabel("I agree to the lab's terms of service").check();
  await page.getByRole('button', { name: 'NEXT' }).click();

  await expect(page).toHaveURL(/\/signup\/2-of-3$/);
  await expect(page.getByLabel('Referred by a photographer')).toHaveValue('YES');
  await expect(page.getByLabel('Referral code')).toHaveValue(code);
  await expect(page.getByText('You successfully validated your referral code!')).toBeVisible();
  await page.getByLabel('Referral code').fill('NOSUCHCODE');
  await expect(page.getByText('This referral code does not exist.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'NEXT' })).toBeDisabled();
  await page.getByLabel('Referral code').fill(code.toLowerCase());
  await expect(page.getByText('You successfully validated your referral code!')).toBeVisible();
  await page.getByRole('button', { name: 'NEXT' }).click();

  await expect(page).toHaveURL(/\/signup\/3-of-3$/);
  const submit = page.getByRole('button', { name: 'SUBMIT APPLICATION' });
  await expect(submit).toBeDisabled();
  await page.getByLabel('Blanket certificate of resale (PDF)').setInputFiles({
    name: 'blanket-certificate.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
  });
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByText('Congratulations! You can now sign in and place orders')).toBeVisible();

  // The referrer now counts one referred photographer.
  const after = await request.patch(`/api/v2/users/${guid}`, { data: { referral_code: code }, headers: { token } });
  expect(((await after.json()) as { user: { referred_users: number } }).user.referred_users).toBe(1);
});

test('a certificate that is not a PDF is refused with the upload error', async ({ page }) => {
  await page.goto('/signup/1-of-3');
  await fillStep1(page, `notpdf-${unique()}@studio.example`);
  await page.getByLabel("I agree to the lab's terms of service").check();
  await page.getByRole('button', { name: 'NEXT' }).click();
  await page.getByLabel('Referred by a photographer').selectOption('NO');
  await page.getByRole('button', { name: 'NEXT' }).click();
  // Named .pdf, but a JPEG inside: the server checks the content.
  await page.getByLabel('Blanket certificate of resale (PDF)').setInputFiles({
    name: 'scan.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'),
  });
  await page.getByRole('button', { name: 'SUBMIT APPLICATION' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Errors while uploading:');
  await expect(alert).toContainText('The blanket certificate of resale must be a PDF file.');
  await expect(page).toHaveURL(/\/signup\/3-of-3$/);
});
