import { expect, type Page } from '@playwright/test';

/** The demo admin every fresh server creates (DESIGN.md §2). */
export const DEMO_ADMIN = { email: 'admin@example.com', password: 'admin-password' };

export const LOGGED_OUT = 'You have been logged out!';

/** Fills the login form as a person would and waits to leave /login. */
export async function signIn(page: Page, who = DEMO_ADMIN): Promise<void> {
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'SIGN IN' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

export const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('token'));
