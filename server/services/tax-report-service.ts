import { and, asc, eq, gte, isNotNull, lt, ne, sql } from 'drizzle-orm';
import { toCsv } from '../../src/domain/csv.ts';
import { formatMoney } from '../../src/domain/money.ts';
import { FIRST_REPORT_YEAR, reportYearsRule } from '../../src/domain/tax-reports.ts';
import { DOWNLOAD_URL_TTL_S } from '../adapters/storage/storage.ts';
import { labOrders, taxReports, users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { textPdf } from '../reports/pdf.ts';
import { unauthorized, validationError } from '../http/errors.ts';
import { fullName, type Actor } from './auth-service.ts';

export const TAX_REPORT_QUEUE = 'tax-report';

const keyFor = (userGuid: string, year: number, ext: 'csv' | 'pdf') => `reports/${userGuid}/${year}/sales-${year}.${ext}`;

/** Asks for a year's report: the background job writes it; the profile shows it when ready. */
export async function requestTaxReport(deps: ServerDeps, actor: Actor | null, year: number) {
  if (!actor) throw unauthorized();
  const current = (deps.now?.() ?? new Date()).getUTCFullYear();
  if (year < FIRST_REPORT_YEAR || year > current) throw validationError(reportYearsRule(current));
  await deps.db
    .insert(taxReports)
    .values({ userGuid: actor.user.guid, year, status: 'generating' })
    .onConflictDoUpdate({ target: [taxReports.userGuid, taxReports.year], set: { status: 'generating', requestedAt: sql`now()` } });
  await deps.jobs.send(TAX_REPORT_QUEUE, { userGuid: actor.user.guid, year });
  return { year, status: 'generating' as const };
}

/**
 * The job: every paid order of the year with its figures, as a CSV and a PDF in storage. Years
 * are UTC years (a lab in another time zone sees New Year's Eve orders by UTC date).
 */
export async function writeTaxReport(deps: ServerDeps, job: { userGuid: string; year: number }) {
  const [user] = await deps.db.select().from(users).where(eq(users.guid, job.userGuid));
  if (!user) return;
  const orders = await deps.db
    .select()
    .from(labOrders)
    .where(
      and(
        eq(labOrders.userGuid, job.userGuid),
        isNotNull(labOrders.paidAt),
        ne(labOrders.status, 'cancelled'),
        gte(labOrders.paidAt, new Date(Date.UTC(job.year, 0, 1))),
        lt(labOrders.paidAt, new Date(Date.UTC(job.year + 1, 0, 1))),
      ),
    )
    .orderBy(asc(labOrders.paidAt));
  const money = (cents: number) => (cents / 100).toFixed(2);
  const rows = orders.map((o) => [
    o.orderName,
    o.paidAt?.toISOString().slice(0, 10) ?? '',
    money(o.subtotalCents),
    money(o.discountCents),
    money(o.creditCents),
    money(o.shippingCents),
    money(o.boutiqueCents),
    money(o.totalCents),
  ]);
  const sum = (pick: (o: (typeof orders)[number]) => number) => orders.reduce((s, o) => s + pick(o), 0);
  const totals = {
    subtotal: sum((o) => o.subtotalCents),
    discount: sum((o) => o.discountCents),
    credit: sum((o) => o.creditCents),
    shipping: sum((o) => o.shippingCents),
    boutique: sum((o) => o.boutiqueCents),
    total: sum((o) => o.totalCents),
  };
  // Subtotal - discount - credit + shipping + boutique packaging = total, per order and in the TOTAL row.
  const header = ['Order', 'Paid on', 'Subtotal', 'Discount', 'Credit', 'Shipping', 'Boutique', 'Total'];
  const csv = toCsv(header, [
    ...rows,
    ['TOTAL', '', money(totals.subtotal), money(totals.discount), money(totals.credit), money(totals.shipping), money(totals.boutique), money(totals.total)],
  ]);

  const cell = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}.` : text.padEnd(width));
  const line = (r: string[]) => [cell(r[0] ?? '', 28), cell(r[1] ?? '', 11), ...r.slice(2).map((v) => v.padStart(10))].join(' ');
  const pdf = textPdf([
    { text: `Sales report ${job.year}`, bold: true },
    { text: `${fullName(user)}${user.businessName ? `, ${user.businessName}` : ''} (${user.email})` },
    { text: `Paid orders: ${orders.length}. Generated ${(deps.now?.() ?? new Date()).toISOString().slice(0, 10)}.` },
    { text: '' },
    { text: line(header), bold: true },
    ...(rows.length ? rows.map((r) => ({ text: line(r) })) : [{ text: `No paid orders in ${job.year}.` }]),
    { text: '' },
    {
      text: `Total ${formatMoney(totals.total)} (subtotal ${formatMoney(totals.subtotal)}, discount ${formatMoney(totals.discount)}, credit ${formatMoney(totals.credit)}, shipping ${formatMoney(totals.shipping)}, boutique packaging ${formatMoney(totals.boutique)})`,
      bold: true,
    },
  ]);

  const csvKey = keyFor(job.userGuid, job.year, 'csv');
  const pdfKey = keyFor(job.userGuid, job.year, 'pdf');
  await deps.storage.put(csvKey, Buffer.from(csv, 'utf8'), 'text/csv');
  await deps.storage.put(pdfKey, pdf, 'application/pdf');
  await deps.db
    .update(taxReports)
    .set({ status: 'ready', csvKey, pdfKey, generatedAt: sql`now()` })
    .where(and(eq(taxReports.userGuid, job.userGuid), eq(taxReports.year, job.year)));
}

/**
 * The years of SALES HISTORY with what each has (nothing yet, a report on its way, or links),
 * from the photographer's tax-report rows (read with the profile, account-reads.ts).
 */
export function taxReportLinks(deps: ServerDeps, rows: Pick<typeof taxReports.$inferSelect, 'year' | 'status' | 'csvKey' | 'pdfKey'>[]) {
  const current = (deps.now?.() ?? new Date()).getUTCFullYear();
  const years = Array.from({ length: current - FIRST_REPORT_YEAR + 1 }, (_, i) => FIRST_REPORT_YEAR + i);
  return Promise.all(
    years.map(async (year) => {
      const row = rows.find((r) => r.year === year);
      const ready = row?.status === 'ready' && row.csvKey && row.pdfKey;
      return {
        year,
        status: (row?.status ?? 'none') as 'none' | 'generating' | 'ready' | 'failed',
        csv_link: ready ? await deps.storage.presignGet(row.csvKey ?? '', { expiresInSeconds: DOWNLOAD_URL_TTL_S, downloadName: `sales-${year}.csv` }) : null,
        pdf_link: ready ? await deps.storage.presignGet(row.pdfKey ?? '', { expiresInSeconds: DOWNLOAD_URL_TTL_S, downloadName: `sales-${year}.pdf` }) : null,
      };
    }),
  );
}

/** A report whose job failed is shown as failed, so the photographer can ask again. */
export async function markTaxReportFailed(deps: ServerDeps, job: { userGuid: string; year: number }) {
  await deps.db.update(taxReports).set({ status: 'failed' }).where(and(eq(taxReports.userGuid, job.userGuid), eq(taxReports.year, job.year)));
}
