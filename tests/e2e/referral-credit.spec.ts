/**
 * A referred photographer's paid order earns their referrer credit (REFERRAL_CREDIT_PERCENT of the
 * subtotal, 10 by default): the referrer sees it on /credit, in the figure and the report.
 */
import { expect, test } from '@playwright/test';
import { formatMoney, toCents } from '../../src/domain/money.ts';
import { savedCard, shopperWithCart } from './checkout-fixtures.ts';
import { signIn } from './helpers.ts';

test.setTimeout(120_000);

test("a referred photographer's paid order earns the referrer credit, shown on /credit", async ({ page, browser }) => {
  // The referrer: a photographer of their own, with a known password.
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const mentor = { email: `mentor-${stamp}@studio.example`, password: 'mentor-pass-1' };
  const made = await page.request.post('/api/v2/users', {
    data: { email: mentor.email, first_name: 'Diane', last_name: 'Arbus', password: mentor.password, password_confirmation: mentor.password },
  });
  expect(made.status(), await made.text()).toBe(200);
  const referrer = (await made.json()) as { guid: string; token: string };
  const code = `DIANE${stamp}`;
  expect((await page.request.patch(`/api/v2/users/${referrer.guid}`, { headers: { token: referrer.token }, data: { referral_code: code } })).ok()).toBe(true);

  // The referred photographer names the referrer, then pays an order.
  const { cart, email } = await shopperWithCart(page);
  const headers = { token: cart.token };
  expect((await page.request.patch('/api/v2/update_new_user', { headers, data: { code } })).ok()).toBe(true);
  const card = await savedCard(page.request, cart.token);
  for (const [type, value] of [['used_saved_card', card.id], ['local_pickup', true]] as const) {
    expect((await page.request.patch(`/api/v2/lab_orders/${cart.orderGuid}`, { headers, data: { type, value } })).ok()).toBe(true);
  }
  const paid = await page.request.post(`/api/v2/lab_orders/${cart.orderGuid}/checkout`, { headers, data: { save_card: false } });
  expect(paid.status(), await paid.text()).toBe(200);
  const subtotalCents = toCents(((await paid.json()) as { data: { attributes: { subtotal: number } } }).data.attributes.subtotal);
  const earned = formatMoney(Math.round(subtotalCents / 10));

  const context = await browser.newContext();
  const mentorPage = await context.newPage();
  await mentorPage.goto('/login');
  await signIn(mentorPage, mentor);
  await mentorPage.goto('/credit');
  await expect(mentorPage.getByRole('definition').filter({ hasText: earned }).first()).toBeVisible();
  await expect(mentorPage.getByRole('table').getByRole('row').filter({ hasText: email })).toContainText(earned);
  await context.close();
});
