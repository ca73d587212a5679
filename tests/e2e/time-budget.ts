/**
 * The suite's time limits are set for CI: 2 workers on 2 cores, a test per core. Run with more
 * tests at once per core (the busy run before a hand-over: `--workers=4` on 2 cores), every step
 * of every test takes longer alike: long journeys ran out of their limits with nothing wrong but
 * the wait for a core (every action slow in their traces, none stuck). The limits grow in that
 * proportion, so the busy run finds races, not a slower machine; a hang still ends in a time-out.
 * playwright.config.ts sets E2E_LOAD from the number of workers before any test runs.
 */
const load = (): number => Math.max(1, Number(process.env.E2E_LOAD ?? '1') || 1);

/** A time limit set for CI, for the load this run puts on the machine. */
export const budget = (ms: number): number => Math.round(ms * load());
