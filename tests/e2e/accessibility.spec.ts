import { randomBytes } from 'node:crypto';
import { test } from '@playwright/test';
import { DEMO_ADMIN, signIn } from './helpers.ts';
import { PUBLIC_SCREENS, SIGNED_IN_SCREENS, TOUCH_WIDTH, WIDTHS, expectAccessible, openScreen } from './screens.ts';

// One browser context per width, signed in once: every screen, signed out then signed in.
for (const width of WIDTHS) {
  test(`every screen is accessible and fits at ${width}px`, async ({ browser, request }) => {
    test.setTimeout(120_000);
    // A photographer whose page the admin opens at /photographers/:guid.
    const email = `a11y-${randomBytes(4).toString('hex')}@studio.example`;
    const res = await request.post('/api/v2/users', {
      data: { email, first_name: 'Dorothea', last_name: 'Lange', password: 'migrant-mother-1', password_confirmation: 'migrant-mother-1' },
    });
    const { guid } = (await res.json()) as { guid: string };
    // An open order of the admin's, for its upload page.
    const login = await request.post('/api/v2/login', { data: DEMO_ADMIN });
    const { token } = (await login.json()) as { token: string };
    const created = await request.post('/api/v2/lab_orders', { headers: { token }, data: { order_name: `Accessibility ${width} ${randomBytes(4).toString('hex')}` } });
    const order = ((await created.json()) as { data: { attributes: { guid: string } } }).data.attributes.guid;

    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    for (const screen of PUBLIC_SCREENS) {
      await openScreen(page, screen);
      await expectAccessible(page, screen.path);
    }

    await page.goto('/login');
    await signIn(page);
    for (const screen of SIGNED_IN_SCREENS) {
      await openScreen(page, screen, { guid, order });
      await expectAccessible(page, screen.path);
    }

    if (width < TOUCH_WIDTH) {
      // The navigation is a menu on phones: open, it must hold up too.
      await openScreen(page, { path: '/lab-orders', heading: 'ORDERS' });
      await page.getByRole('button', { name: 'MENU' }).click();
      await expectAccessible(page, '/lab-orders with the menu open');
    }
    await context.close();
  });
}
