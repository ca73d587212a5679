/**
 * Partner webhooks (issue 34): a photographer adds a webhook on /account and copies its secret
 * once; an admin moves their order; a loopback receiver checks every signature, refuses the
 * first try with a 500 and takes the lab's retry; the account page's log shows it, and RESEND
 * sends the same event again. Then the ORDER MAILS switches: a mail turned off is not sent.
 */
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { expect, test } from '@playwright/test';
import { signUpPhotographer } from './cart-fixtures.ts';
import { DEMO_ADMIN } from './helpers.ts';
import { expectAccessible } from './screens.ts';

// A sign-up, and the lab's retry after its first backoff (10 s) on a shared machine.
test.setTimeout(120_000);

/** The subjects of every mail the test SMTP server dropped for an address (tests/e2e/serve.ts). */
function mailSubjectsTo(address: string): string[] {
  const dir = process.env.E2E_MAIL_DIR ?? '';
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .filter((m) => m.startsWith(`X-Envelope-To: ${address}\r\n`))
    .map((m) => /^Subject: (.*)$/m.exec(m)?.[1]?.trim() ?? '');
}

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

test('a partner webhook gets each status change signed, a refused try again, and a resend', async ({ page }) => {
  const received: Received[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      // The partner's server is mid-deploy for the first try.
      const answered = received.length === 0 ? 500 : 200;
      received.push({ headers: req.headers, body, answered });
      res.statusCode = answered;
      res.end(answered === 200 ? 'thanks' : 'deploying');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/lab-events`;
  try {
    const token = await signUpPhotographer(page);
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'PARTNER WEBHOOKS' });
    await section.getByLabel('Webhook URL').fill('ftp://example.com/x');
    await section.getByRole('button', { name: 'ADD WEBHOOK' }).click();
    await expect(section.getByRole('alert')).toHaveText('The webhook URL must be an https address, like https://example.com/lab-events.');
    await expect(section.getByLabel('Webhook URL')).toHaveValue('ftp://example.com/x');
    await section.getByLabel('Webhook URL').fill(url);
    await section.getByRole('button', { name: 'ADD WEBHOOK' }).click();
    const shown = section.getByRole('status').filter({ hasText: 'Signing secret' });
    await expect(shown).toContainText('Copy it now: it is not shown again.');
    const secret = (await shown.locator('code').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await section.screenshot({ path: test.info().outputPath(`webhook-added-${width}.png`) });
    }
    await section.getByRole('button', { name: 'DONE' }).click();
    await expect(section.getByText(secret)).toHaveCount(0);
    await expect(section.getByRole('list', { name: 'Your webhooks' })).toContainText(`secret whsec_…${secret.slice(-4)}`);

    const created = await page.request.post('/api/v2/lab_orders', { headers: { token }, data: { order_name: `Webhook ${Date.now()}` } });
    expect(created.status()).toBe(201);
    const orderGuid = (await created.json()).data.attributes.guid as string;
    const login = await page.request.post('/api/v2/login', { data: DEMO_ADMIN });
    const admin = (await login.json()).token as string;
    const moved = await page.request.patch(`/api/v2/lab_orders/${orderGuid}`, { headers: { token: admin }, data: { type: 'status', value: 'paid' } });
    expect(moved.status()).toBe(200);

    // The first try is refused; pg-boss tries again after the backoff, and the receiver takes it.
    await expect.poll(() => received.map((r) => r.answered), { timeout: 60_000 }).toEqual([500, 200]);
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    for (const r of received) {
      const signed = createHmac('sha256', key).update(`${String(r.headers['webhook-id'])}.${String(r.headers['webhook-timestamp'])}.${r.body}`).digest('base64');
      expect(r.headers['webhook-signature']).toBe(`v1,${signed}`);
      expect(JSON.parse(r.body)).toMatchObject({ type: 'order.accepted', data: { order: { guid: orderGuid, status: 'paid' } } });
    }
    expect(received[1]?.headers['webhook-id']).toBe(received[0]?.headers['webhook-id']);

    await section.getByRole('button', { name: `DELIVERIES ${url}` }).click();
    const log = section.getByRole('table', { name: `Deliveries to ${url}` });
    await expect(log.getByRole('row').nth(1)).toContainText('order.accepted');
    await expect(log.getByRole('row').nth(1)).toContainText('Delivered');
    await expect(log.getByRole('row').nth(1)).toContainText('HTTP 200: thanks');
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await section.screenshot({ path: test.info().outputPath(`webhook-log-${width}.png`) });
    }
    await expectAccessible(page, 'account, partner webhooks with the delivery log');

    await log.getByRole('button', { name: /^RESEND order\.accepted/ }).click();
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(3);
    expect(received[2]?.headers['webhook-id']).toBe(received[0]?.headers['webhook-id']);

    // ORDER MAILS: the photographer turns the printing mail off; the shipped one still arrives
    // through the test SMTP server, and the printing one, queued before it, never does.
    const mails = page.getByRole('region', { name: 'ORDER MAILS' });
    await mails.getByLabel('Printing started').uncheck();
    await expect(mails.getByLabel('Printing started')).not.toBeChecked();
    await page.reload();
    await expect(mails.getByLabel('Printing started')).not.toBeChecked();
    await expect(mails.getByLabel('Shipped, with the tracking link')).toBeChecked();
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await mails.screenshot({ path: test.info().outputPath(`order-mails-${width}.png`) });
    }
    const email = ((await (await page.request.get('/api/v2/profile', { headers: { token } })).json()).user.email) as string;
    for (const status of ['printing', 'shipped']) {
      expect((await page.request.patch(`/api/v2/lab_orders/${orderGuid}`, { headers: { token: admin }, data: { type: 'status', value: status } })).status()).toBe(200);
    }
    await expect.poll(() => mailSubjectsTo(email), { timeout: 30_000 }).toContainEqual(expect.stringMatching(/has shipped$/));
    expect(mailSubjectsTo(email).filter((subject) => subject.endsWith('is printing'))).toEqual([]);
    await expect.poll(() => received.map((r) => JSON.parse(r.body).type as string), { timeout: 30_000 }).toEqual(['order.accepted', 'order.accepted', 'order.accepted', 'order.printing', 'order.shipped']);
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});

test.describe('without a service worker in the way of the interception', () => {
  test.use({ serviceWorkers: 'block' });

  test('ADD WEBHOOK pressed again after its answer was lost registers the webhook once', async ({ page }) => {
    await signUpPhotographer(page);
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'PARTNER WEBHOOKS' });
    // Never called: no order of this photographer moves.
    const url = 'http://127.0.0.1:9/lab-events';
    const keys: string[] = [];
    let loseAnswer = true;
    await page.route('**/api/v2/webhooks', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (!loseAnswer) return route.fallback();
      loseAnswer = false;
      // The lab registers the webhook; its answer is lost on the way back to the page.
      expect((await route.fetch()).status()).toBe(201);
      await route.abort('connectionreset');
    });
    await section.getByLabel('Webhook URL').fill(url);
    await section.getByRole('button', { name: 'ADD WEBHOOK' }).click();
    await expect(section.getByRole('alert')).toBeVisible();
    await expect(section.getByLabel('Webhook URL')).toHaveValue(url);
    await section.getByRole('button', { name: 'ADD WEBHOOK' }).click();
    await expect(section.getByRole('status').filter({ hasText: 'Signing secret' })).toContainText(/whsec_/);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    await expect(section.getByRole('list', { name: 'Your webhooks' }).getByRole('listitem')).toHaveCount(1);
  });
});
