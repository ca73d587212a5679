/**
 * Ship dates and delay notices (issue 34): the final review shows when an order ships; an admin's
 * delay and its reason reach the photographer's order detail; an order the lab did not ship by its
 * promised day gets a new date from the lab's own schedule, told once by mail (through the test
 * SMTP server) and shown on the order detail.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { SCHEDULE_REASON } from '../../server/services/delay-notices.ts';
import { addBusinessDays, formatLabDay } from '../../src/domain/ship-dates.ts';
import { savedCard, shopperWithCart } from './checkout-fixtures.ts';
import { signIn } from './helpers.ts';
import { LATE_ORDER } from './delay-notice-seed.ts';
import { expectAccessible } from './screens.ts';

test.setTimeout(120_000);

async function atBothWidths(page: Page, label: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await expectAccessible(page, label);
  }
}

test("the final review shows the lab's ship date; an admin's delay reaches the photographer's detail", async ({ page, browser }) => {
  const { cart } = await shopperWithCart(page);
  const headers = { token: cart.token };
  const card = await savedCard(page.request, cart.token);
  for (const [type, value] of [['used_saved_card', card.id], ['local_pickup', true]] as const) {
    expect((await page.request.patch(`/api/v2/lab_orders/${cart.orderGuid}`, { headers, data: { type, value } })).ok()).toBe(true);
  }
  await page.goto(`/lab-orders/${cart.orderGuid}/checkout-final/`);
  await expect(page.getByRole('heading', { name: 'SHIP DATE' })).toBeVisible();
  const shown = page.getByText(/^Ready for pickup by (MON|TUE|WED|THU|FRI), [A-Z]{3} \d{1,2}$/);
  await expect(shown).toBeVisible();
  await atBothWidths(page, '/checkout-final-ship-date');
  const reviewed = await shown.textContent();
  await page.getByRole('button', { name: 'PLACE ORDER' }).click();
  await expect(page).toHaveURL(/\/lab-order-confirmation/);
  const paid = await page.request.get(`/api/v2/lab_orders/${cart.orderGuid}/retrieve_full_order`, { headers });
  const promised = ((await paid.json()) as { data: { attributes: { ship_dates: { ship_by: string } } } }).data.attributes.ship_dates.ship_by;
  // Payment kept the date the review showed.
  expect(reviewed).toBe(`Ready for pickup by ${formatLabDay(promised)}`);

  // The lab's admin, on their own device, posts a delay with the reason the photographer reads.
  const lab = await browser.newContext();
  try {
    const admin = await lab.newPage();
    await admin.goto('/login');
    await signIn(admin);
    await admin.goto(`/lab-orders/${cart.orderGuid}`);
    const form = admin.getByRole('form', { name: 'Delay' });
    await expect(form).toContainText(`Promised: ${formatLabDay(promised)}`);
    const later = addBusinessDays(promised, 2);
    await form.getByLabel('New ship date').fill(later);
    await form.getByLabel('Reason for the photographer').fill('The lustre paper roll is being replaced.');
    await form.getByRole('button', { name: 'POST DELAY' }).click();
    await expect(admin.getByText(`The photographer is told: ships by ${formatLabDay(later)}.`)).toBeVisible();
    await admin.getByRole('complementary', { name: 'Admin panel' }).screenshot({ path: test.info().outputPath('admin-delay.png') });

    await page.goto(`/lab-orders/${cart.orderGuid}`);
    const notice = page.getByRole('region', { name: 'DELAYED: NEW SHIP DATE' });
    await expect(notice).toContainText(`Ready for pickup by ${formatLabDay(later)}`);
    await expect(notice.getByRole('listitem')).toHaveText([`Was ${formatLabDay(promised)}, now ${formatLabDay(later)}: The lustre paper roll is being replaced.`]);
  } finally {
    await lab.close();
  }
});

test("the lab's schedule tells of a late order once, by mail and on the order detail", async ({ page }) => {
  // The schedule ran when the lab started and runs every minute: the notice is there, or comes.
  await expect.poll(async () => (await delayMails()).length, { timeout: 90_000, intervals: [1000] }).toBe(1);
  const [mail = ''] = await delayMails();
  expect(mail).toContain(`Subject: Your order ${LATE_ORDER.orderName} has a new ship date`);
  expect(mail).toContain(SCHEDULE_REASON);

  await page.goto('/login');
  await signIn(page, LATE_ORDER);
  const token = (await page.evaluate(() => localStorage.getItem('token'))) ?? '';
  const list = await page.request.get('/api/v2/lab_orders', { headers: { token } });
  const late = ((await list.json()) as { data: { attributes: { guid: string; order_name: string } }[] }).data.find((o) => o.attributes.order_name === LATE_ORDER.orderName);
  if (!late) throw new Error('the seeded late order is missing');
  await page.goto(`/lab-orders/${late.attributes.guid}`);
  const notice = page.getByRole('region', { name: 'DELAYED: NEW SHIP DATE' });
  await expect(notice).toContainText(/Ships by (MON|TUE|WED|THU|FRI), [A-Z]{3} \d{1,2} · arrives /);
  await expect(notice.getByRole('list', { name: 'Delays' }).getByRole('listitem')).toHaveText([new RegExp(`^Was [A-Z]{3}, [A-Z]{3} \\d{1,2}, now [A-Z]{3}, [A-Z]{3} \\d{1,2}: ${SCHEDULE_REASON}$`)]);
  await atBothWidths(page, '/order-detail-delayed');
  // Told once: one delay mail however many times the schedule has run since.
  expect(await delayMails()).toHaveLength(1);
});

/** The delay mails the test SMTP server dropped for the waiting photographer, soft line breaks undone. */
async function delayMails(): Promise<string[]> {
  const dir = process.env.E2E_MAIL_DIR ?? '';
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8').replace(/=\r?\n/g, ''))
    .filter((m) => m.startsWith(`X-Envelope-To: ${LATE_ORDER.email}\r\n`) && m.includes('has a new ship date'));
}
