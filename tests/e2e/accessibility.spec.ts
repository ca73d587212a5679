import { randomBytes } from 'node:crypto';
import { test, type APIRequestContext } from '@playwright/test';
import { DEMO_ADMIN, signIn } from './helpers.ts';
import { AXE_WIDTHS, PUBLIC_SCREENS, SIGNED_IN_SCREENS, TOUCH_WIDTH, WIDTHS, expectAccessible, openScreen, type Screen } from './screens.ts';

// Screens per test: one test walking every screen at a width outran its limit on a 2-core machine
// running several times slower than usual; smaller groups also spread over the workers.
const SCREENS_PER_TEST = 8;
// Per screen: its load and an axe-core run, with room for a slow, busy machine (the slowest group
// took half of this a screen there at 4 workers).
const SCREEN_MS = 20_000;
// Per test: the browser context, the sign-in and the API calls that make its photographer and order.
const SETUP_MS = 30_000;

const groups = (screens: Screen[]): Screen[][] =>
  Array.from({ length: Math.ceil(screens.length / SCREENS_PER_TEST) }, (_, i) => screens.slice(i * SCREENS_PER_TEST, (i + 1) * SCREENS_PER_TEST));

/** A photographer (the admin opens /photographers/:guid) and an open order of the admin's (its upload page, its detail). */
async function screenParams(request: APIRequestContext, width: number): Promise<{ guid: string; order: string }> {
  const email = `a11y-${randomBytes(4).toString('hex')}@studio.example`;
  const res = await request.post('/api/v2/users', {
    data: { email, first_name: 'Dorothea', last_name: 'Lange', password: 'migrant-mother-1', password_confirmation: 'migrant-mother-1' },
  });
  const { guid } = (await res.json()) as { guid: string };
  const login = await request.post('/api/v2/login', { data: DEMO_ADMIN });
  const { token } = (await login.json()) as { token: string };
  // Named 'Accessibility …': the order detail's entry in screens.ts waits for that heading.
  const created = await request.post('/api/v2/lab_orders', { headers: { token }, data: { order_name: `Accessibility ${width} ${randomBytes(4).toString('hex')}` } });
  const order = ((await created.json()) as { data: { attributes: { guid: string } } }).data.attributes.guid;
  return { guid, order };
}

for (const width of WIDTHS) {
  test(`every public screen is accessible and fits at ${width}px`, async ({ browser }) => {
    test.setTimeout(SETUP_MS + SCREEN_MS * PUBLIC_SCREENS.length);
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    for (const screen of PUBLIC_SCREENS) {
      await openScreen(page, screen);
      await expectAccessible(page, screen.path, { axe: AXE_WIDTHS.has(width) });
    }
    await context.close();
  });

  const signedIn = groups(SIGNED_IN_SCREENS);
  signedIn.forEach((screens, i) => {
    const last = i === signedIn.length - 1;
    const first = screens[0]?.path ?? '';
    test(`signed-in screens from ${first} are accessible and fit at ${width}px`, async ({ browser, request }) => {
      test.setTimeout(SETUP_MS + SCREEN_MS * (screens.length + (last ? 1 : 0)));
      const params = await screenParams(request, width);
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      await page.goto('/login');
      await signIn(page);
      for (const screen of screens) {
        await openScreen(page, screen, params);
        await expectAccessible(page, screen.path, { axe: AXE_WIDTHS.has(width) });
      }
      if (last && width < TOUCH_WIDTH) {
        // The navigation is a menu on phones: open, it must hold up too.
        await openScreen(page, { path: '/lab-orders', heading: 'ORDERS' });
        await page.getByRole('button', { name: 'MENU' }).click();
        await expectAccessible(page, '/lab-orders with the menu open', { axe: AXE_WIDTHS.has(width) });
      }
      await context.close();
    });
  });
}
