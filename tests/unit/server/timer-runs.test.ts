import { describe, expect, it } from 'vitest';
import { timerRuns } from '../../../server/adapters/jobs/timer-runs.ts';

/** One turn of the event loop: every promise that can settle by now has settled. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the periodic runs of the embedded database', () => {
  it('stop waits for the run already going, and starts no other', async () => {
    const runs = timerRuns();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    let finished = 0;
    runs.every(1, async () => {
      started += 1;
      await gate;
      finished += 1;
    });
    await expect.poll(() => started).toBeGreaterThan(0);

    let stopped = false;
    const stopping = runs.stop().then(() => (stopped = true));
    await turn();
    expect(stopped).toBe(false);
    const startedBeforeStop = started;
    release();
    await stopping;
    expect(finished).toBe(startedBeforeStop);
    await turn();
    expect(started).toBe(startedBeforeStop);
  });
});
