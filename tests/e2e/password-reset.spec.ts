import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { lastMailTo, signIn } from './helpers.ts';

test('a photographer resets a forgotten password with the token from a real mail', async ({ page, request }) => {
  const email = `forgetful-${randomBytes(4).toString('hex')}@studio.example`;
  const signup = await request.post('/api/v2/users', {
    data: { email, first_name: 'Walker', last_name: 'Evans', password: 'old-password-1', password_confirmation: 'old-password-1' },
  });
  expect(signup.status()).toBe(200);

  await page.goto('/login');
  await page.getByRole('link', { name: 'RESET' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  // The address changes at the click; the sign-in form, with its own Email, stays (inert) until
  // this screen's code is in.
  await expect(page.getByRole('heading', { name: 'FORGOT PASSWORD' })).toBeVisible();
  const submit = page.getByRole('button', { name: 'SUBMIT' });
  await page.getByLabel('Email').fill('nobody-here@studio.example');
  await expect(page.getByText('Email does not exist. Please register as a new user.')).toBeVisible();
  await expect(submit).toBeDisabled();
  await page.getByLabel('Email').fill(email);
  await expect(submit).toBeEnabled();
  await submit.click();

  await expect(page).toHaveURL(/\/forgot-password-confirmation/);
  await expect(page.getByText('We sent you an email. You can reset your password by following the instructions in the email.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'BACK TO SIGN IN' })).toBeVisible();

  const mail = await lastMailTo(email);
  expect(mail).toContain('Subject: Your password reset token');
  const token = /reset token is: ([A-Z0-9]{6})/.exec(mail)?.[1];
  expect(token).toBeTruthy();

  await page.getByRole('link', { name: 'ENTER YOUR RESET TOKEN' }).click();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  const save = page.getByRole('button', { name: 'SAVE' });
  await page.getByLabel('Reset token').fill('ZZ ZZZZ');
  await expect(page.getByText('Reset token either expired or is not valid for this email address.')).toBeVisible();
  // Typed with a space and in lower case, and with a stray character the field refuses.
  await page.getByLabel('Reset token').fill(`${token?.slice(0, 3).toLowerCase()} ${token?.slice(3)}!`);
  await expect(page.getByLabel('Reset token')).not.toHaveValue(/!/);
  await expect(page.getByText('Reset token accepted.')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('new-password-1');
  await page.getByLabel('Confirm password').fill('new-password-2');
  await expect(save).toBeDisabled();
  await page.getByLabel('Confirm password').fill('new-password-1');
  await save.click();

  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { name: 'ORDERS', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Log out' }).click();
  await signIn(page, { email, password: 'new-password-1' });
  await expect(page.getByRole('heading', { name: 'ORDERS', exact: true })).toBeVisible();
});
