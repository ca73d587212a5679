/**
 * Issue 12, checkout against the real lab (docs/orders.md §2 Checkout details, Checkout final, Order
 * thanks; §4; §5): each test makes a photographer with a real cart, checks out through the
 * screens, and checks through the lab's API that the order is paid exactly once, with the lab's
 * own figures, and that the receipt mail arrived at the test SMTP server.
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { CART_CLEARED, NEEDS_ADDRESS_AND_CARD } from '../../src/app/routes.ts';
import { CREDIT_OVER_LIMIT, INVALID_DISCOUNT_CODE } from '../../src/client-rules/checkout.ts';
import { addLineItems, cartWithPhotos } from './cart-fixtures.ts';
import {
  DECLINED_AT_CHARGE_CARD,
  DECLINED_CARD,
  E2E_DISCOUNT_CODES,
  GOOD_CARD,
  PHOTO,
  addAddress,
  addAddressAfterSlips,
  creditOf,
  dollars,
  enterCard,
  enterCardAfterSlips,
  figure,
  keptCards,
  labCheckout,
  savedCard,
  settled,
  shopperWithCart,
  type Shopper,
} from './checkout-fixtures.ts';
import { lastMailTo } from './helpers.ts';
import { WIDTHS, expectAccessible } from './screens.ts';

// An upload, a sign-up, and the lab's answers on a machine shared with other runs.
test.setTimeout(180_000);

const THANKS = "Thank you for your order! We'll get started on it right away. You should receive a confirmation email and receipt shortly.";
const details = (s: Shopper) => `/lab-orders/${s.cart.orderGuid}/checkout-details`;
const final = (s: Shopper) => `/lab-orders/${s.cart.orderGuid}/checkout-final/`;
/** The page is at this path (any notice in the query dropped once shown). */
const at = (path: string) => new RegExp(`^[^?]*${path}$`);

async function openDetails(page: Page, s: Shopper): Promise<void> {
  await page.goto(details(s));
  await expect(page.getByRole('heading', { level: 1, name: 'CHECKOUT' })).toBeVisible();
  await settled(page);
}

async function reviewAndConfirm(page: Page, s: Shopper): Promise<void> {
  await settled(page);
  await page.getByRole('button', { name: 'REVIEW & CONFIRM' }).click();
  await expect(page).toHaveURL(at(final(s)));
  await expect(page.getByRole('heading', { level: 1, name: 'REVIEW & CONFIRM' })).toBeVisible();
  await settled(page);
}

/** PLACE ORDER, the thanks page, and the lab's word that the order is paid (by the card, unless `charged` is false). */
async function placeOrder(page: Page, s: Shopper, charged = true) {
  await page.getByRole('button', { name: 'PLACE ORDER' }).click();
  await expect(page).toHaveURL(at('/lab-order-confirmation'));
  await expect(page.getByRole('heading', { level: 1, name: THANKS })).toBeVisible();
  const lab = await labCheckout(page.request, s.cart);
  expect(lab.status).toBe('paid');
  expect(lab.paid_at).not.toBeNull();
  // The provider's charge id when a card paid; none when nothing was left to charge.
  if (charged) expect(lab.stripe_order_confirmation ?? '').not.toBe('');
  else expect(lab.stripe_order_confirmation).toBeNull();
  return lab;
}

/** The figures both checkout screens show are the lab's, to the cent. */
async function expectLabFigures(page: Page, s: Shopper): Promise<void> {
  const lab = await labCheckout(page.request, s.cart);
  await expect(figure(page, 'SUBTOTAL')).toHaveText(dollars(lab.subtotal));
  await expect(figure(page, 'SHIPPING')).toHaveText(dollars(lab.shipping_total));
  await expect(figure(page, 'TOTAL')).toHaveText(dollars(lab.total));
}

test('a saved card and a new address: the guards, both screens at every width, PLACE ORDER, thanks, the receipt', async ({ page }) => {
  const s = await shopperWithCart(page);
  const card = await savedCard(page.request, s.cart.token);

  // Checkout final with no address yet: back to details, with the toast (docs/orders.md §4 guard 3).
  await page.goto(final(s));
  await expect(page).toHaveURL(at(details(s)));
  await expect(page.getByText(NEEDS_ADDRESS_AND_CARD)).toBeVisible();
  await settled(page);
  await expect(page.getByText('CODE APPLIED: NONE SELECTED')).toBeVisible();

  // Not ready: REVIEW & CONFIRM says what is missing and stays.
  await page.getByRole('button', { name: 'REVIEW & CONFIRM' }).click();
  await expect(page).toHaveURL(at(details(s)));

  await addAddress(page);
  await page.getByRole('radio', { name: card.mask }).click();
  await settled(page);
  await expect(page.getByRole('radio', { name: card.mask })).toBeChecked();
  await expectLabFigures(page, s);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page, `checkout details with a cart at ${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await reviewAndConfirm(page, s);
  const lab = await labCheckout(page.request, s.cart);
  const shippingTo = page.locator('.final-address');
  await expect(shippingTo).toContainText('Vivian Maier');
  await expect(shippingTo).toContainText('1 Lake Shore Dr');
  await expect(shippingTo).toContainText('Chicago, IL 60611');
  await expect(page.getByText(card.mask)).toBeVisible();
  await expect(page.getByText('NO BOUTIQUE PACKAGING')).toBeVisible();
  await expect(page.getByRole('heading', { name: `TOTAL ${dollars(lab.total)}` })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Order details' }).getByRole('listitem')).toHaveCount(1);
  await expect(page.getByRole('listitem', { name: PHOTO })).toContainText('QTY 2');
  await expectLabFigures(page, s);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page, `checkout final at ${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // EDIT goes back to details and on again.
  await page.getByRole('link', { name: 'EDIT checkout details' }).click();
  await expect(page).toHaveURL(at(details(s)));
  await reviewAndConfirm(page, s);

  const paid = await placeOrder(page, s);
  expect(paid.total).toBe(lab.total);
  // The receipt, through the real SMTP server.
  const mail = await lastMailTo(s.email);
  expect(mail).toContain(dollars(lab.total));
  // RETURN HOME, and a paid order's checkout goes to its page (guard 1).
  await page.getByRole('link', { name: 'RETURN HOME' }).click();
  await expect(page).toHaveURL(at('/lab-orders'));
  await page.goto(final(s));
  await expect(page).toHaveURL(new RegExp(`/lab-orders/${s.cart.orderGuid}$`));
});

test('a new card saved for later appears in CREDIT CARDS; one used once does not; slips in the zip, phone, card number and CVC are kept and said', async ({ page }) => {
  const s = await shopperWithCart(page);
  await openDetails(page, s);
  await addAddressAfterSlips(page);
  await enterCardAfterSlips(page, GOOD_CARD);
  await page.getByLabel('SAVE CARD FOR FUTURE USE').check();
  await reviewAndConfirm(page, s);
  await expect(page.getByText(/4242/)).toBeVisible();
  await placeOrder(page, s);
  expect(await keptCards(page.request, s.cart.token)).toHaveLength(1);
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'CREDIT CARDS' })).toBeVisible();
  await expect(page.getByRole('radio', { name: /4242/ })).toBeVisible();

  // A second order, with a card typed once and not kept.
  const second = await cartWithPhotos(page, [{ name: PHOTO, colour: 'blue' }]);
  await addLineItems(page.request, second, [{ photo: PHOTO, paper: 'Lustre', size: '5x7' }]);
  const t = { ...s, cart: second };
  const before = await keptCards(page.request, second.token);
  await openDetails(page, t);
  await addAddress(page);
  await enterCard(page, '5555555555554444');
  await expect(page.getByLabel('SAVE CARD FOR FUTURE USE')).not.toBeChecked();
  await reviewAndConfirm(page, t);
  await placeOrder(page, t);
  expect(await keptCards(page.request, second.token)).toEqual(before);
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'CREDIT CARDS' })).toBeVisible();
  await expect(page.getByRole('radio', { name: /4444/ })).toHaveCount(0);
});

test('local pickup needs no address: no shipping charged, SHIPPING TO says LOCAL PICKUP', async ({ page }) => {
  const s = await shopperWithCart(page);
  const card = await savedCard(page.request, s.cart.token);
  await openDetails(page, s);
  await page.getByRole('radio', { name: card.mask }).click();
  await settled(page);
  await page.getByLabel(/LOCAL PICKUP/).click();
  await settled(page);
  await expect(figure(page, 'SHIPPING')).toHaveText('$0.00');
  await expectLabFigures(page, s);
  await reviewAndConfirm(page, s);
  await expect(page.locator('.final-address')).toHaveText('LOCAL PICKUP');
  const lab = await placeOrder(page, s);
  expect(lab.shipping_total).toBe(0);
  expect(lab.local_pickup).toBe(true);
  // The order's page says it once (its shipping method is local_pickup too).
  await page.goto(`/lab-orders/${s.cart.orderGuid}`);
  await expect(page.getByRole('definition').filter({ hasText: 'LOCAL PICKUP' })).toHaveText('LOCAL PICKUP');
});

test('credit earned by a referral covers a whole order: no card needed, the credit is spent once', async ({ page, browser }) => {
  // The referrer, and a photographer they referred whose paid order earns them credit.
  const referrer = await shopperWithCart(page);
  const code = `REF${randomBytes(3).toString('hex').toUpperCase()}`;
  expect((await page.request.patch(`/api/v2/users/${referrer.guid}`, { headers: { token: referrer.cart.token }, data: { referral_code: code } })).ok()).toBe(true);
  const other = await browser.newContext();
  const referredPage = await other.newPage();
  const referred = await shopperWithCart(referredPage, [{ photo: PHOTO, paper: 'Canvas - Black Wrap', size: '16x20', quantity: 5 }]);
  const r = referredPage.request;
  const referredBy = await r.patch('/api/v2/update_new_user', { headers: { token: referred.cart.token }, data: { code } });
  expect(referredBy.status(), await referredBy.text()).toBe(200);
  const rCard = await savedCard(r, referred.cart.token);
  const headers = { token: referred.cart.token };
  for (const [type, value] of [['used_saved_card', rCard.id], ['local_pickup', true]] as const) {
    expect((await r.patch(`/api/v2/lab_orders/${referred.cart.orderGuid}`, { headers, data: { type, value } })).ok()).toBe(true);
  }
  const referredPaid = await r.post(`/api/v2/lab_orders/${referred.cart.orderGuid}/checkout`, { headers, data: { save_card: false } });
  expect(referredPaid.status(), await referredPaid.text()).toBe(200);
  await other.close();
  const credit = await creditOf(page.request, referrer.cart.token);
  expect(credit).toBeGreaterThan(0);

  await openDetails(page, referrer);
  await addAddress(page);
  const owed = (await labCheckout(page.request, referrer.cart)).total;
  expect(credit).toBeGreaterThanOrEqual(owed);
  const creditBox = page.getByLabel(/^Credit to apply/);
  await creditBox.fill(String(credit + 1));
  await expect(page.getByText(CREDIT_OVER_LIMIT)).toBeVisible();
  await expect(page.getByRole('button', { name: 'APPLY CREDIT' })).toBeDisabled();
  await creditBox.fill('not money');
  await expect(page.getByText(CREDIT_OVER_LIMIT)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'APPLY CREDIT' })).toBeDisabled();
  await creditBox.fill(owed.toFixed(2));
  await page.getByRole('button', { name: 'APPLY CREDIT' }).click();
  await settled(page);
  await expect(figure(page, 'TOTAL')).toHaveText('$0.00');
  await expect(figure(page, 'CREDIT')).toHaveText(`-${dollars(owed)}`);

  await reviewAndConfirm(page, referrer);
  await expect(page.getByText('NONE SELECTED')).toBeVisible();
  await expect(page.getByText(`DISCOUNT AND CREDIT APPLIED`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'PLACE ORDER' })).toBeEnabled();
  const lab = await placeOrder(page, referrer, false);
  expect(lab.total).toBe(0);
  expect(lab.credit_applied).toBe(owed);
  // A paid order's checkout goes to its page, though no card was charged.
  await page.goto(final(referrer));
  await expect(page).toHaveURL(new RegExp(`/lab-orders/${referrer.cart.orderGuid}$`));
  // Spent once: what remains is what was there less what this order took.
  expect(await creditOf(page.request, referrer.cart.token)).toBeCloseTo(credit - owed, 2);
});

test('a discount code is checked from 4 characters and applied; boutique packaging is added and removed with its n/300 counter', async ({ page }) => {
  const s = await shopperWithCart(page);
  const card = await savedCard(page.request, s.cart.token);
  await openDetails(page, s);
  await addAddress(page);
  await page.getByRole('radio', { name: card.mask }).click();
  await settled(page);

  const codeBox = page.getByLabel('Discount code');
  const apply = page.getByRole('button', { name: 'APPLY CODE' });
  await codeBox.fill('NOP');
  await expect(apply).toBeDisabled();
  await codeBox.fill('NOPE-NOT-A-CODE');
  await expect(page.getByText(INVALID_DISCOUNT_CODE)).toBeVisible();
  await expect(apply).toBeDisabled();
  // Below 4 characters the error clears.
  await codeBox.fill('NOP');
  await expect(page.getByText(INVALID_DISCOUNT_CODE)).toHaveCount(0);
  // An expired code says so (the lab's reason), not just "not valid".
  await codeBox.fill(E2E_DISCOUNT_CODES.expired.toLowerCase());
  await expect(page.getByText(new RegExp(`^The discount code ${E2E_DISCOUNT_CODES.expired} expired on \\d{4}-\\d{2}-\\d{2}\\.$`))).toBeVisible();
  await codeBox.fill(E2E_DISCOUNT_CODES.tenPercent.toLowerCase());
  await expect(apply).toBeEnabled();
  await apply.click();
  await settled(page);
  await expect(page.getByText(`CODE APPLIED: ${E2E_DISCOUNT_CODES.tenPercent}`)).toBeVisible();
  const discounted = await labCheckout(page.request, s.cart);
  expect(discounted.discount).toBeCloseTo(discounted.subtotal / 10, 2);
  await expect(figure(page, 'DISCOUNT')).toHaveText(`-${dollars(discounted.discount)}`);
  await expectLabFigures(page, s);

  // Boutique packaging: SAVE waits for a note; the counter counts it.
  const note = page.getByLabel(/^Packaging note/);
  const save = page.getByRole('button', { name: 'SAVE', exact: true });
  await expect(page.getByText('0/300')).toBeVisible();
  await expect(save).toBeDisabled();
  await note.fill('Tissue and the cream box, please');
  await expect(page.getByText('32/300')).toBeVisible();
  await note.fill('x'.repeat(400));
  await expect(page.getByText('300/300')).toBeVisible();
  await note.fill('Tissue and the cream box, please');
  await save.click();
  await settled(page);
  const boxed = await labCheckout(page.request, s.cart);
  expect(boxed.boutique_shipping_price).toBe(15);
  await expect(figure(page, 'BOUTIQUE PACKAGING')).toHaveText('$15.00');
  await page.getByRole('button', { name: 'REMOVE BOUTIQUE PACKAGING' }).click();
  await settled(page);
  await expect(figure(page, 'BOUTIQUE PACKAGING')).toHaveText('$0.00');
  expect((await labCheckout(page.request, s.cart)).boutique_shipping_note).toBeNull();
  await note.fill('Tissue and the cream box, please');
  await save.click();
  await settled(page);
  await expectLabFigures(page, s);

  await reviewAndConfirm(page, s);
  await expect(page.getByText('Tissue and the cream box, please')).toBeVisible();
  const lab = await labCheckout(page.request, s.cart);
  await expect(page.getByText(dollars(lab.discount + lab.credit_applied), { exact: true })).toBeVisible();
  const paid = await placeOrder(page, s);
  expect(paid.discount_code?.code).toBe(E2E_DISCOUNT_CODES.tenPercent);
  expect(paid.total).toBeCloseTo(paid.subtotal - paid.discount + paid.shipping_total + 15, 2);
});

test('a card that will be declined is refused as it is entered, never saved; one declined at the charge shows the provider’s message and leaves the order open; another card then pays it', async ({ page }) => {
  const s = await shopperWithCart(page);
  await openDetails(page, s);
  await addAddress(page);
  // Checked as it is saved, as Stripe checks it: the photographer never meets it at PLACE ORDER.
  await page.getByLabel('Card number').fill(DECLINED_CARD);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'USE THIS CARD' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
  await expect(page.getByRole('radio', { name: /0002/ })).toHaveCount(0);
  expect((await keptCards(page.request, s.cart.token)).filter((mask) => mask.endsWith('0002'))).toEqual([]);

  // A card the provider takes but whose charge it declines (4000 0000 0000 0341).
  await enterCard(page, DECLINED_AT_CHARGE_CARD);
  await reviewAndConfirm(page, s);
  await page.getByRole('button', { name: 'PLACE ORDER' }).click();
  const alert = page.getByRole('alert').filter({ hasText: /Your card was not charged: .+/ });
  await expect(alert).toBeVisible();
  await expect(page).toHaveURL(at(final(s)));
  expect((await labCheckout(page.request, s.cart)).status).toBe('open');

  await alert.getByRole('link', { name: 'CHOOSE ANOTHER CARD' }).click();
  await expect(page).toHaveURL(at(details(s)));
  await settled(page);
  const saved = await savedCard(page.request, s.cart.token, '5555555555554444');
  await page.reload();
  await settled(page);
  await page.getByRole('radio', { name: saved.mask }).click();
  await settled(page);
  await expect(page.getByRole('radio', { name: saved.mask })).toBeChecked();
  // The declined card was typed for this order only: once another is chosen it is gone.
  await expect(page.getByRole('radio', { name: /0341/ })).toHaveCount(0);
  await enterCard(page, GOOD_CARD);
  await reviewAndConfirm(page, s);
  await expect(page.getByText(/4242/)).toBeVisible();
  await placeOrder(page, s);
});

test('PLACE ORDER pressed twice quickly sends one request, and the lab charges once', async ({ page }) => {
  const s = await shopperWithCart(page);
  const card = await savedCard(page.request, s.cart.token);
  await openDetails(page, s);
  await addAddress(page);
  await page.getByRole('radio', { name: card.mask }).click();
  await reviewAndConfirm(page, s);
  const sent: string[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && req.url().endsWith(`/lab_orders/${s.cart.orderGuid}/checkout`)) sent.push(req.headers()['idempotency-key'] ?? '');
  });
  await page.getByRole('button', { name: 'PLACE ORDER' }).dblclick();
  await expect(page).toHaveURL(at('/lab-order-confirmation'));
  expect(sent).toHaveLength(1);
  expect(sent[0]).not.toBe('');
  const lab = await labCheckout(page.request, s.cart);
  expect(lab.status).toBe('paid');
  // The same order cannot be paid again, from this device or any other.
  const again = await page.request.post(`/api/v2/lab_orders/${s.cart.orderGuid}/checkout`, { headers: { token: s.cart.token }, data: { save_card: false } });
  expect(again.status()).toBe(422);
  expect((await labCheckout(page.request, s.cart)).stripe_order_confirmation).toBe(lab.stripe_order_confirmation);
});

test('checkout needs a connection and says so; an emptied cart goes back to the builder', async ({ page, context }) => {
  const s = await shopperWithCart(page);
  await openDetails(page, s);
  // Offline, the next screen's code comes from the service worker's precache: once it controls
  // the page, every chunk is there (a first visit that goes offline sooner cannot load it).
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 45_000 });
  await context.setOffline(true);
  // On to checkout final inside the app (a reload offline would need the service worker's copy).
  await page.evaluate((path) => {
    history.pushState({}, '', path);
    dispatchEvent(new PopStateEvent('popstate'));
  }, final(s));
  await expect(page.getByText(/^Checkout needs a connection\./)).toBeVisible();
  await context.setOffline(false);
  await expect(page.getByRole('button', { name: 'REVIEW & CONFIRM' })).toBeVisible();

  const lines = await page.request.get(`/api/v2/lab_orders/${s.cart.orderGuid}/retrieve_full_order`, { headers: { token: s.cart.token } });
  const guid = ((await lines.json()) as { data: { line_items: { guid: string }[] } }).data.line_items[0]?.guid ?? '';
  expect((await page.request.delete(`/api/v2/line_items/${guid}`, { headers: { token: s.cart.token } })).ok()).toBe(true);
  await page.goto(details(s));
  await expect(page).toHaveURL(new RegExp(`/lab-orders/${s.cart.orderGuid}/edit/order-builder`));
  await expect(page.getByText(CART_CLEARED)).toBeVisible();
});
