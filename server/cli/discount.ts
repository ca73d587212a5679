/**
 * Discount codes from the command line (an admin's tool; the admin screen /discount-codes does the
 * same through the API, with the same rules from discount-service.ts and domain/discount-codes.ts):
 *   npm run discount:create -- --code SPRING10 --percent 10 [--expires 2027-01-31] [--limit 100]
 *   npm run discount:create -- --code FIVEOFF --amount 5.00
 *   npm run discount:list                       every code with its uses
 * --expires names the last day the code works (through the end of that day, UTC). With the
 * embedded database, stop the server first (PGlite is single-process); on PostgreSQL it can run
 * at any time.
 */
import { parseArgs } from 'node:util';
import { formatMoney } from '../../src/domain/money.ts';
import { lastDayOf, parseAmount, parseLastDay, parsePercent, parseUsageLimit } from '../../src/domain/discount-codes.ts';
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
  const fields = [
    [values.percent, parsePercent, (v: number) => (input.percent = v)],
    [values.amount, parseAmount, (v: number) => (input.amountCents = v)],
    [values.expires, parseLastDay, (v: Date) => (input.expiresAt = v)],
    [values.limit, parseUsageLimit, (v: number) => (input.usageLimit = v)],
  ] as const;
  for (const [typed, parse, keep] of fields) {
    if (typed === undefined) continue;
    const parsed = parse(typed);
    if ('problem' in parsed) return parsed.problem;
    (keep as (v: unknown) => void)(parsed.value);
  }
  return newDiscountCodeProblem(input, false) ?? input;
}

const worth = (row: { kind: string; percent: number | null; amountCents: number | null }) => (row.kind === 'percent' ? `${row.percent}% off` : `${formatMoney(row.amountCents ?? 0)} off`);
const lastDay = (expiresAt: Date | null) => (expiresAt ? `through ${lastDayOf(expiresAt)}` : 'no expiry');

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
      console.log(`${row.code}\t${worth(row)}\t${lastDay(row.expiresAt)}\tused ${row.uses}${row.usageLimit ? ` of ${row.usageLimit}` : ''}${row.paused ? '\tpaused' : ''}`);
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
