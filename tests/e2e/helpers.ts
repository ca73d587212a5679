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

/** The newest mail to an address, from the test SMTP server's drop folder (tests/e2e/serve.ts). */
export async function lastMailTo(address: string): Promise<string> {
  const { readdirSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const dir = process.env.E2E_MAIL_DIR ?? '';
  for (let i = 0; i < 50; i++) {
    const mails = readdirSync(dir)
      .sort()
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .filter((m) => m.startsWith(`X-Envelope-To: ${address}\r\n`));
    const last = mails.at(-1);
    if (last) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail arrived for ${address}`);
}

/**
 * A port no one listens on now, for a test's own extra server: a fixed number would collide with
 * the same test run from another checkout on this machine.
 */
export const freePort = async (): Promise<number> => {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
};

/**
 * The orders list has loaded: empty, or with its count line. The demo admin sees every order on
 * the e2e server, and other specs (the uploads) make orders, so no spec may assume it is empty.
 */
export const ordersListLoaded = (page: Page) => page.getByText(/^No lab orders yet\.|^\d+ of \d+ orders$/).first();

/** The rows of one table of the app's IndexedDB, read with the browser's own API. */
export function idbRows<T>(page: Page, table: string): Promise<T[]> {
  return page.evaluate(
    (name) =>
      new Promise<T[]>((resolve, reject) => {
        const open = indexedDB.open('print-lab');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction(name).objectStore(name).getAll();
          req.onsuccess = () => {
            open.result.close();
            resolve(req.result as T[]);
          };
          req.onerror = () => reject(req.error);
        };
      }),
    table,
  );
}
