import { expect, type BrowserContext, type Page } from '@playwright/test';

/** The demo admin every fresh server creates (docs/architecture.md §2). */
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
  const last = () =>
    readdirSync(dir)
      .sort()
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .filter((m) => m.startsWith(`X-Envelope-To: ${address}\r\n`))
      .at(-1);
  await expect.poll(last, { timeout: 10_000, intervals: [200], message: `no mail arrived for ${address}` }).toBeDefined();
  return last() ?? '';
}

/**
 * The app's next probe of the lab (its status call) failing: the link is cut, or the lab is out
 * of reach. Whatever the app does on losing the lab it has done by then (its first probe is
 * PROBE_FIRST_DELAY_MS after it noticed), so a test that must show that something does NOT
 * happen offline waits for this, not for a time. Listen before cutting the link.
 */
export const probeFails = (context: BrowserContext) =>
  context.waitForEvent('requestfailed', { predicate: (r) => new URL(r.url()).pathname === '/api/v2/status', timeout: 60_000 });

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

// A test's own extra server makes a fresh PGlite database, the catalogue and the job schema at
// start: seconds alone, minutes on a machine shared by several runs, so the limit is generous (a
// server that hangs still ends the wait).
export const EXTRA_SERVER_START_MS = 150_000;

/** Waits for a test's own extra server to answer; says what it wrote to stderr if it never does. */
export async function serverStarted(base: string, stderr: () => string): Promise<void> {
  const answers = () => fetch(`${base}/api/v2/status`).then((r) => r.ok, () => false);
  await expect
    .poll(answers, { timeout: EXTRA_SERVER_START_MS, intervals: [200] })
    .toBe(true)
    .catch((err: unknown) => {
      throw new Error(`the server at ${base} did not start: ${stderr()}`, { cause: err });
    });
}

/**
 * The orders list has loaded: empty, or with its count line. The demo admin sees every order on
 * the e2e server, and other specs (the uploads) make orders, so no spec may assume it is empty.
 */
export const ordersListLoaded = (page: Page) => page.getByText(/^No lab orders yet\.|^No orders match your search|^\d+ of \d+ orders$/).first();

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

/** A dropdown (src/ui/list-select.tsx, a select-only combobox) by its label. */
export const combo = (page: Page, label: string) => page.getByRole('combobox', { name: label, exact: true });

/** The open list of a dropdown. */
export const listOf = (page: Page, label: string) => page.getByRole('listbox', { name: label, exact: true });

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Chooses an option of a dropdown as a person does: a click opens it, a click on the option
 * chooses it. An option is named by its text, or by its start where the app adds a price after
 * it ('8x10' picks '8x10 ($3.10)', 'MAT' never picks 'MATTE'), or by its position
 * ({ index: 0 } is the first entry, the 'Choose…' prompt). Options that arrive while the list is
 * open (a print size's finishing) are waited for.
 */
export async function choose(page: Page, label: string, option: string | { index: number }): Promise<void> {
  const list = listOf(page, label);
  if ((await combo(page, label).getAttribute('aria-expanded')) !== 'true') await combo(page, label).click();
  const item =
    typeof option === 'string'
      ? list.getByRole('option', { name: new RegExp(`^${escapeRegExp(option)}(?: \\(| —|$)`) })
      : list.getByRole('option').nth(option.index);
  await item.click();
  await expect(list).toHaveCount(0);
}

/** The texts of a dropdown's options (opened to read them, then closed with Escape). */
export async function optionsOf(page: Page, label: string): Promise<string[]> {
  await combo(page, label).click();
  const texts = await listOf(page, label).getByRole('option').allTextContents();
  await combo(page, label).press('Escape');
  await expect(listOf(page, label)).toHaveCount(0);
  return texts;
}

/**
 * Stands the context's page clock still: timers never fire. A part of the app that only comes
 * by a timer (React revealing content 300 ms after a fallback) then never comes.
 */
export async function stillClock(context: BrowserContext): Promise<void> {
  const start = new Date('2026-11-23T09:00:00Z');
  await context.clock.install({ time: start });
  await context.clock.pauseAt(new Date(start.getTime() + 1));
}

/** Holds the answers to requests matching `pattern` (a screen's code) until the returned release is called. */
export async function holdRequests(page: Page, pattern: RegExp): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
