/**
 * Discount codes from the command line (an admin's tool; there is no admin screen for them):
 *   npm run discount:create -- --code SPRING10 --percent 10 [--expires 2027-01-31] [--limit 100]
 *   npm run discount:create -- --code FIVEOFF --amount 5.00
 *   npm run discount:list                       every code with its uses
 * --expires names the last day the code works (through the end of that day, UTC). With the
 * embedded database, stop the server first (PGlite is single-process); on PostgreSQL it can run
 * at any time.
 */
import { parseArgs } from 'node:util';
import { formatMoney, toCents } from '../../src/domain/money.ts';
import { loadConfig } from '../config.ts';
import { runCli } from './run-cli.ts';
import { openDatabase } from '../db/client.ts';
import { createDiscountCode, listDiscountCodes, newDiscountCodeProblem, type NewDiscountCode } from '../services/discount-service.ts';

const USAGE = 'Usage: discount create --code CODE (--percent N | --amount D.DD) [--expires YYYY-MM-DD] [--limit N] | discount list';

/** The command line's options as a new code, or the problem with them. */
export function parseCreate(args: string[]): NewDiscountCode | string {
  let values;
  try {
    ({ values } = parseArgs({ args, options: { code: { type: 'string' }, percent: { type: 'string' }, amount: { type: 'string' }, expires: { type: 'string' }, limit: { type: 'string' } }, strict: true }));
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  if (!values.code) return 'Give the code: --code SPRING10.';
  const input: NewDiscountCode = { code: values.code };
  if (values.percent !== undefined) {
    if (!/^\d{1,3}$/.test(values.percent)) return 'The percent is a whole number from 1 to 100.';
    input.percent = Number(values.percent);
  }
  if (values.amount !== undefined) {
    if (!/^\d{1,7}(\.\d{1,2})?$/.test(values.amount)) return 'The amount is in dollars with at most 2 decimals, such as 5.00.';
    input.amountCents = toCents(values.amount);
  }
  if (values.expires !== undefined) {
    const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(values.expires);
    const start = day ? new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))) : null;
    if (!start || start.toISOString().slice(0, 10) !== values.expires) return 'The expiry is a date: --expires 2027-01-31.';
    // Works through the whole named day: it expires when the next one starts.
    input.expiresAt = new Date(start.getTime() + 24 * 60 * 60 * 1000);
  }
  if (values.limit !== undefined) {
    if (!/^\d{1,9}$/.test(values.limit)) return 'The usage limit is a whole number of 1 or more.';
    input.usageLimit = Number(values.limit);
  }
  return newDiscountCodeProblem(input, false) ?? input;
}

const worth = (row: { kind: string; percent: number | null; amountCents: number | null }) => (row.kind === 'percent' ? `${row.percent}% off` : `${formatMoney(row.amountCents ?? 0)} off`);
const lastDay = (expiresAt: Date | null) => (expiresAt ? `through ${new Date(expiresAt.getTime() - 1).toISOString().slice(0, 10)}` : 'no expiry');

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command !== 'create' && command !== 'list') {
    console.error(USAGE);
    return 2;
  }
  const input = command === 'create' ? parseCreate(rest) : null;
  if (typeof input === 'string') {
    console.error(`${input}\n${USAGE}`);
    return 2;
  }
  const database = await openDatabase(loadConfig());
  try {
    if (input) {
      const row = await createDiscountCode(database.db, input);
      console.log(`Created ${row.code}: ${worth(row)}, ${lastDay(row.expiresAt)}, ${row.usageLimit ? `at most ${row.usageLimit} uses` : 'no usage limit'}.`);
      return 0;
    }
    const rows = await listDiscountCodes(database.db);
    if (!rows.length) console.log('No discount codes yet (npm run discount:create -- --code SPRING10 --percent 10).');
    for (const row of rows) {
      console.log(`${row.code}\t${worth(row)}\t${lastDay(row.expiresAt)}\tused ${row.uses}${row.usageLimit ? ` of ${row.usageLimit}` : ''}`);
    }
    return 0;
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    return 1;
  } finally {
    await database.close();
  }
}

// Run as a script only (the tests import parseCreate).
if (process.argv[1]?.endsWith('discount.ts')) {
  runCli(main);
}
