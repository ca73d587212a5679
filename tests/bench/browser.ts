/** Debian's Chromium through Playwright, with a signed-in session where one is needed. */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { SessionAnswer } from '../../src/contract/session.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/browser.ts';
import { sessionStorageEntries } from './http.ts';

// Playwright's own Ctrl-C handler would exit the process before the bench stops its server and
// removes its data; run.ts closes the browser itself.
// `extraArgs`: the lists bench turns the frame-rate limit off, to time a frame's work, not vsync.
export const launchBrowser = (extraArgs: string[] = []): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs], handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });

/**
 * A fresh context (empty HTTP cache) with the service worker blocked, so nothing is served from
 * a precache; signed in when a session is given, through local storage as the app keeps it.
 */
export function freshContext(browser: Browser, origin: string, session?: SessionAnswer): Promise<BrowserContext> {
  return browser.newContext({
    serviceWorkers: 'block',
    ...(session ? { storageState: { cookies: [], origins: [{ origin, localStorage: sessionStorageEntries(session) }] } } : {}),
  });
}

/** Fails when a signed-in screen sent the browser to /login: the session was not taken. */
export function expectScreen(page: Page, path: string): void {
  const at = new URL(page.url()).pathname;
  if (at !== path) throw new Error(`opening ${path} ended on ${at} (is the session in local storage still what the app reads?)`);
}

/**
 * The orders-list request the app itself sends when a signed-in user opens /lab-orders: with
 * paging (on branches that page) it is the first page, exactly as the client asks for it.
 */
export async function clientOrdersRequest(browser: Browser, origin: string, session: SessionAnswer): Promise<string> {
  const context = await freshContext(browser, origin, session);
  try {
    const page = await context.newPage();
    const listCall = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v2/lab_orders' && r.request().method() === 'GET', { timeout: 60_000 });
    const toLogin = page.waitForURL((u) => u.pathname === '/login', { timeout: 60_000 }).then(() => null);
    await page.goto(`${origin}/lab-orders`, { waitUntil: 'commit' });
    const response = await Promise.race([listCall, toLogin]);
    if (!response) throw new Error('opening /lab-orders signed in ended on /login');
    // Wait for the whole answer, so the server is idle again before anything is measured.
    await response.body();
    const url = new URL(response.url());
    return `${url.pathname}${url.search}`;
  } finally {
    await context.close();
  }
}
