import type { ServerDeps } from './deps.ts';
import { TAX_REPORT_QUEUE, writeTaxReport } from './services/tax-report-service.ts';

/** Every background job this process works on. */
export async function startJobWorkers(deps: ServerDeps): Promise<void> {
  await deps.jobs.work<{ userGuid: string; year: number }>(TAX_REPORT_QUEUE, (data) => writeTaxReport(deps, data));
}
