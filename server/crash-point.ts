/**
 * Named points where the crash test (tests/api/crash.test.ts) has the server kill itself with
 * kill -9, inside a window too short to hit from outside: LAB_TEST_CRASH_AT names one, and the
 * process dies the first time it gets there. Refused with NODE_ENV=production (config.ts).
 *
 *   idempotent-change-committed: a change under an Idempotency-Key has committed, its answer is
 *                                not stored yet (http/idempotency.ts).
 *   payment-pending:             a checkout's payment is written pending and the card charged,
 *                                the order not marked paid yet (services/checkout-service.ts).
 */
export const CRASH_POINTS = ['idempotent-change-committed', 'payment-pending'] as const;

export type CrashPoint = (typeof CRASH_POINTS)[number];

/** Kills this process, as kill -9 does, when `crashAt` (the configured point) is `point`; else nothing. */
export function crashPoint(crashAt: CrashPoint | undefined, point: CrashPoint): void {
  if (crashAt === point) process.kill(process.pid, 'SIGKILL');
}
