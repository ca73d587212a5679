import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCreate } from '../../server/cli/discount.ts';
import { discountCodes } from '../../server/db/schema.ts';
import { createDiscountCode, listDiscountCodes } from '../../server/services/discount-service.ts';
import { createTestApp, expectErrorBody, type TestApp } from './helper.ts';
import { discountCode } from './checkout-helpers.ts';
import { callAs, photographer } from './photo-helpers.ts';

/** Discount codes: made from the command line, checked by validate_discount_code (docs/lab-rules.md §3). */
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ LOOKUP_RATE_LIMIT: '30' });
  ({ token } = await photographer(t));
});
afterAll(() => t.close());

const validate = (code: string, as: string | null = token) => callAs(t.app, 'POST /validate_discount_code', { body: { code } }, as ? { token: as } : {});

describe('POST /validate_discount_code', () => {
  it('answers a percent code and an amount code with what each is worth, in any letter case', async () => {
    const percent = await discountCode(t, { percent: 15 });
    const res = await validate(`  ${percent.toLowerCase()} `);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ success: true, discount_code: { code: percent, kind: 'percent', percent: 15 } });
    const amount = await discountCode(t, { amountCents: 550 });
    expect((await validate(amount)).json()).toEqual({ success: true, discount_code: { code: amount, kind: 'amount', amount: 5.5 } });
  });

  it('refuses unknown and used-up codes with the one message, an expired one with its last day', async () => {
    const expired = await discountCode(t, { percent: 10, expiresAt: new Date('2026-01-01T00:00:00Z') });
    const usedUp = await discountCode(t, { percent: 10, usageLimit: 2 });
    await t.db.update(discountCodes).set({ uses: 2 }).where(eq(discountCodes.code, usedUp));
    for (const code of ['NO-SUCH-CODE', usedUp, 'abc']) {
      const res = await validate(code);
      expect(res.status).toBe(404);
      expect(expectErrorBody(res.json(), 404).message).toBe('This is not a valid discount code.');
    }
    const res = await validate(expired);
    expect(res.status).toBe(404);
    expect(expectErrorBody(res.json(), 404).message).toBe(`The discount code ${expired} expired on 2025-12-31.`);
  });

  it('a code that expires later, or with uses left, is valid', async () => {
    const later = await discountCode(t, { percent: 10, expiresAt: new Date(t.clock.now.getTime() + 60_000), usageLimit: 2 });
    await t.db.update(discountCodes).set({ uses: 1 }).where(eq(discountCodes.code, later));
    expect((await validate(later)).status).toBe(200);
  });

  it('needs a signed-in caller', async () => {
    expect((await validate('ANYTHING', null)).status).toBe(401);
  });
});

describe('making codes (npm run discount:create)', () => {
  it('reads the command line', () => {
    expect(parseCreate(['--code', 'spring10', '--percent', '10', '--expires', '2027-01-31', '--limit', '100'])).toEqual({
      code: 'spring10',
      percent: 10,
      // Through the whole named day.
      expiresAt: new Date('2027-02-01T00:00:00.000Z'),
      usageLimit: 100,
    });
    expect(parseCreate(['--code', 'FIVE-OFF', '--amount', '5.00'])).toEqual({ code: 'FIVE-OFF', amountCents: 500 });
  });

  it.each([
    [['--percent', '10'], 'Give the code'],
    [['--code', 'SPRING10'], 'either a percent'],
    [['--code', 'SPRING10', '--percent', '10', '--amount', '5'], 'either a percent'],
    [['--code', 'SPRING10', '--percent', '0'], 'from 1 to 100'],
    [['--code', 'SPRING10', '--percent', '101'], 'from 1 to 100'],
    [['--code', 'SPRING10', '--amount', '5.005'], 'at most 2 decimals'],
    [['--code', 'SPRING10', '--amount', '0'], 'at least 0.01'],
    [['--code', 'SPRING10', '--percent', '10', '--expires', '2027-02-30'], 'is a date'],
    [['--code', 'SPRING10', '--percent', '10', '--limit', '0'], 'usage limit'],
    [['--code', 'NO', '--percent', '10'], '4 to 40'],
    [['--code', 'SPRING 10', '--percent', '10'], '4 to 40'],
    [['--code', 'SPRING10', '--percent', '10', '--bogus'], 'bogus'],
  ])('refuses %j', (args, problem) => {
    const parsed = parseCreate(args);
    expect(typeof parsed).toBe('string');
    expect(parsed).toContain(problem);
  });

  it('stores codes upper-case, once, and lists them with their uses', async () => {
    const row = await createDiscountCode(t.db, { code: 'list-me-1', percent: 20, usageLimit: 5 });
    expect(row).toMatchObject({ code: 'LIST-ME-1', kind: 'percent', percent: 20, amountCents: null, usageLimit: 5, uses: 0 });
    await expect(createDiscountCode(t.db, { code: 'LIST-ME-1', amountCents: 100 })).rejects.toThrow('already exists');
    expect((await listDiscountCodes(t.db)).find((r) => r.code === 'LIST-ME-1')).toMatchObject({ uses: 0 });
  });
});

describe('the discount CLI', () => {
  it('creates a code and lists it with its uses, on the database of DATA_DIR', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'discount-cli-'));
    const run = (args: string[]) => promisify(execFile)('npx', ['tsx', 'server/cli/discount.ts', ...args], { env: { ...process.env, DATA_DIR: dataDir } });
    try {
      const created = await run(['create', '--code', 'spring10', '--percent', '10', '--expires', '2027-01-31', '--limit', '100']);
      expect(created.stdout).toContain('Created SPRING10: 10% off, through 2027-01-31, at most 100 uses.');
      await run(['create', '--code', 'FIVE-OFF', '--amount', '5.00']);
      const listed = await run(['list']);
      expect(listed.stdout).toContain('SPRING10\t10% off\tthrough 2027-01-31\tused 0 of 100');
      expect(listed.stdout).toContain('FIVE-OFF\t$5.00 off\tno expiry\tused 0');
      await expect(run(['create', '--code', 'FIVE-OFF', '--amount', '5.00'])).rejects.toMatchObject({ stderr: expect.stringContaining('already exists') });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
