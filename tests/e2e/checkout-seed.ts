/**
 * The discount codes checkout.spec.ts uses, made before the lab opens its embedded database (PGlite
 * is one process's) with the same service `npm run discount:create` calls, as a lab admin makes
 * them. Run by serve.ts; a code that exists already (a reused data directory) is left alone.
 */
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/client.ts';
import { createDiscountCode, listDiscountCodes, type NewDiscountCode } from '../../server/services/discount-service.ts';
import { E2E_DISCOUNT_CODES } from './checkout-fixtures.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

const CODES: NewDiscountCode[] = [
  { code: E2E_DISCOUNT_CODES.tenPercent, percent: 10 },
  { code: E2E_DISCOUNT_CODES.fiveOff, amountCents: 500 },
  { code: E2E_DISCOUNT_CODES.expired, percent: 50, expiresAt: new Date(Date.now() - DAY_MS) },
];

export async function seedDiscountCodes(): Promise<void> {
  const database = await openDatabase(loadConfig());
  try {
    const existing = new Set((await listDiscountCodes(database.db)).map((row) => row.code));
    for (const code of CODES) if (!existing.has(code.code)) await createDiscountCode(database.db, code);
  } finally {
    await database.close();
  }
}
