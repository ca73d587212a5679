/**
 * Checkout's fixtures: a photographer with a real cart (cart-fixtures.ts: photos uploaded through
 * the upload screen, line items priced by the lab), cards minted by the sandbox provider's TEST MODE
 * tokenization, and what the lab holds, read through its API.
 */
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { formatMoney } from '../../src/domain/money.ts';
import { CVC_RULE, ZIP_RULE } from '../../src/domain/validation.ts';
import { addLineItems, cartWithPhotos, type Cart, type ItemSpec } from './cart-fixtures.ts';
import { WIDTHS, expectAccessible } from './screens.ts';

export const PHOTO = 'PORTRAIT_0001.jpg';
/** Stripe's test cards, which the sandbox takes as Stripe does. */
export const GOOD_CARD = '4242424242424242';
/** Declined as it is saved (tok_chargeDeclined), as at Stripe. */
export const DECLINED_CARD = '4000000000000002';
/** Saved, then declined when charged (tok_chargeCustomerFail), as at Stripe. */
export const DECLINED_AT_CHARGE_CARD = '4000000000000341';

export interface Shopper {
  cart: Cart;
  email: string;
  guid: string;
}

/** A new photographer, signed in on `page`, with an order holding `items` (default: 2 Lustre 8x10). */
export async function shopperWithCart(page: Page, items: ItemSpec[] = [{ photo: PHOTO, paper: 'Lustre', size: '8x10', quantity: 2 }]): Promise<Shopper> {
  const cart = await cartWithPhotos(page, [{ name: PHOTO, colour: 'red' }]);
  await addLineItems(page.request, cart, items);
  const profile = await page.request.get('/api/v2/profile', { headers: { token: cart.token } });
  const { user } = (await profile.json()) as { user: { email: string; guid: string } };
  return { cart, email: user.email, guid: user.guid };
}

/** Saves a card to the photographer's CREDIT CARDS (as the account page does); answers its mask. */
export async function savedCard(request: APIRequestContext, token: string, number = GOOD_CARD): Promise<{ id: string; mask: string }> {
  const minted = await request.post('/api/v2/sandbox/tokens', { data: { number, exp_month: 12, exp_year: 2034, cvc: '123' } });
  expect(minted.status(), await minted.text()).toBe(200);
  const { id: tokenId } = (await minted.json()) as { id: string };
  const saved = await request.post('/api/v2/accounts/create_card', { headers: { token }, data: { token_id: tokenId } });
  expect(saved.ok(), await saved.text()).toBe(true);
  const { cards } = (await saved.json()) as { cards: { data: { id: string; masked_card: string }[] } };
  const card = cards.data.at(-1);
  if (!card) throw new Error('the card was not saved');
  return { id: card.id, mask: card.masked_card };
}

export interface LabCheckout {
  status: string;
  paid_at: string | null;
  stripe_order_confirmation: string | null;
  subtotal: number;
  discount: number;
  credit_applied: number;
  shipping_total: number;
  boutique_shipping_price: number;
  boutique_shipping_note: string | null;
  total: number;
  discount_code: { code: string } | null;
  local_pickup: boolean;
}

/** The checkout order as the lab holds it. */
export async function labCheckout(request: APIRequestContext, cart: Cart): Promise<LabCheckout> {
  const answer = await request.get(`/api/v2/lab_orders/${cart.orderGuid}/retrieve_full_order`, { headers: { token: cart.token } });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { data: { attributes: LabCheckout } }).data.attributes;
}

/** The photographer's kept cards, as /account lists them. */
export async function keptCards(request: APIRequestContext, token: string): Promise<string[]> {
  const profile = await request.get('/api/v2/profile', { headers: { token } });
  return ((await profile.json()) as { cards: { data: { masked_card: string }[] } }).cards.data.map((c) => c.masked_card);
}

/** The photographer's credit, in dollars. */
export async function creditOf(request: APIRequestContext, token: string): Promise<number> {
  const profile = await request.get('/api/v2/profile', { headers: { token } });
  return ((await profile.json()) as { user: { credit_available: number } }).user.credit_available;
}

export const dollars = (amount: number) => formatMoney(Math.round(amount * 100));

/** One figure of a summary panel ('SUBTOTAL', 'TOTAL', …) on either checkout screen. */
export const figure = (page: Page, label: string) => page.locator('.figure-row').filter({ has: page.getByText(label, { exact: true }) }).locator('dd');

const VIVIAN = { first: 'Vivian', last: 'Maier', street: '1 Lake Shore Dr', city: 'Chicago', state: 'IL', zip: '60611' };
type Address = typeof VIVIAN;

/** Checkout details' new-address form, opened, with all but the zip and the phone filled. */
async function newAddressForm(page: Page, a: Address) {
  const form = page.getByRole('form', { name: 'New address' });
  const open = page.getByRole('button', { name: 'NEW ADDRESS' });
  // The form starts open when there is no saved address and NEW ADDRESS opens it otherwise; wait
  // for the section to be drawn before choosing, or a page still loading reads as "closed".
  await expect(form.or(open)).toBeVisible();
  if (await open.isVisible()) await open.click();
  await form.getByLabel('First name').fill(a.first);
  await form.getByLabel('Last name').fill(a.last);
  await form.getByLabel('Street address', { exact: true }).fill(a.street);
  await form.getByLabel('City').fill(a.city);
  await form.getByLabel('State').fill(a.state);
  return { form, zip: form.getByLabel('Zip'), save: form.getByRole('button', { name: 'SAVE' }), saved: page.getByRole('radio', { name: new RegExp(a.street) }) };
}

/** A field keeps what was typed and says what is wrong beside it (issue 31). */
export async function expectSaidBeside(field: Locator, typed: string, said: string): Promise<void> {
  await expect(field).toHaveValue(typed);
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(said);
}

/** Fills checkout details' new-address form and saves it (it becomes the order's address). */
export async function addAddress(page: Page, a = VIVIAN): Promise<void> {
  const { zip, save, saved } = await newAddressForm(page, a);
  await zip.fill(a.zip.slice(0, 4));
  // docs/orders.md §5: SAVE waits for a 5-character zip.
  await expect(save).toBeDisabled();
  await zip.fill(a.zip);
  await save.click();
  await expect(saved).toBeChecked();
}

/**
 * A new address typed with slips (issue 31): an o for a 0 in the zip, a letter in the phone. Each is
 * kept and said beside its field; SAVE saves nothing and puts the focus on the first wrong field
 * until both are put right.
 */
export async function addAddressAfterSlips(page: Page, a = VIVIAN): Promise<void> {
  const { form, zip, save, saved } = await newAddressForm(page, a);
  const phone = form.getByLabel('Phone (optional)');
  const zipSlip = `${a.zip.slice(0, 4)}o`;
  await zip.fill(zipSlip);
  await phone.fill('31a2-555');
  await expectSaidBeside(zip, zipSlip, ZIP_RULE);
  await expectSaidBeside(phone, '31a2-555', 'A phone number has digits only: "a" is not one.');
  await expect(form.getByText(ZIP_RULE)).toBeVisible();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page, 'checkout address with slips', { axe: width === WIDTHS[0] });
  }
  await page.setViewportSize({ width: WIDTHS[0], height: 900 });

  await save.click();
  await expect(zip).toBeFocused();
  await zip.fill(a.zip);
  await expect(zip).not.toHaveAttribute('aria-invalid', 'true');
  await save.click();
  await expect(phone).toBeFocused();
  await phone.fill('(312) 555-0100');
  await save.click();
  await expect(saved).toBeChecked();
  // The refused SAVEs sent nothing: one address, saved once.
  await expect(saved).toHaveCount(1);
}

const usedNewCard = (page: Page, number: string) => page.getByRole('radio', { name: new RegExp(`${number.slice(-4)}.*\\(new card\\)`) });

/** Types a card into the TEST MODE card field of checkout details and uses it for the order. */
export async function enterCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'USE THIS CARD' }).click();
  await expect(usedNewCard(page, number)).toBeChecked();
}

/**
 * A card typed with slips (issue 31): an l for the last 1 of the number, a letter in the CVC. Each
 * is kept and said beside its field; USE THIS CARD sends nothing to the provider and puts the focus
 * on the first wrong field until both are put right.
 */
export async function enterCardAfterSlips(page: Page, number: string): Promise<void> {
  const box = page.getByLabel('Card number');
  const cvc = page.getByLabel('CVC');
  const use = page.getByRole('button', { name: 'USE THIS CARD' });
  const slip = `${number.slice(0, -1)}l`;
  await box.fill(slip);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await cvc.fill('12a');
  await expectSaidBeside(box, slip, 'A card number has digits only: "l" is not one.');
  await expectSaidBeside(cvc, '12a', CVC_RULE);
  await use.click();
  await expect(box).toBeFocused();
  await box.fill(number);
  await expect(box).not.toHaveAttribute('aria-invalid', 'true');
  await use.click();
  await expect(cvc).toBeFocused();
  await cvc.fill('123');
  await use.click();
  await expect(usedNewCard(page, number)).toBeChecked();
  // The refused presses sent nothing: the card was used once.
  await expect(page.getByRole('radio', { name: /\(new card\)/ })).toHaveCount(1);
}

/** Waits until checkout's 'loading...' has gone (nothing on its way to the lab). */
export const settled = (page: Page) => expect(page.getByRole('status').filter({ hasText: /^loading\.\.\.$/ })).toHaveCount(0);

/** The discount codes the e2e server starts with (checkout-seed.ts). */
export const E2E_DISCOUNT_CODES = { tenPercent: 'E2E-TEN-PERCENT', fiveOff: 'E2E-FIVE-OFF', expired: 'E2E-EXPIRED' } as const;
