import type { ServerDeps } from './deps.ts';
import { PHOTO_DERIVATIVES_QUEUE, makeDerivatives } from './services/photo-derivatives.ts';
import { TAX_REPORT_QUEUE, markTaxReportFailed, writeTaxReport } from './services/tax-report-service.ts';

/** Every background job this process works on. */
export async function startJobWorkers(deps: ServerDeps): Promise<void> {
  await deps.jobs.work<{ userGuid: string; year: number }>(TAX_REPORT_QUEUE, async (data) => {
    try {
      await writeTaxReport(deps, data);
    } catch (err) {
      // Shown as failed at once (GENERATE is offered again); pg-boss still retries, and a retry
      // that succeeds marks the report ready.
      await markTaxReportFailed(deps, data);
      throw err;
    }
  });
  // A failure (storage unreachable) is retried by pg-boss; until the preview and thumbnail
  // exist, the photo's addresses show the original.
  await deps.jobs.work<{ photoGuid: string }>(PHOTO_DERIVATIVES_QUEUE, (data) => makeDerivatives(deps, data));
}
