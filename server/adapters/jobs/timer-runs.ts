/**
 * The embedded database's periodic work, on timers in this process (see periodicRunner in
 * jobs.ts). `stop` ends the timers and waits for any run already going, so a shutdown closes the
 * database after the housekeeping, never under it.
 */
export function timerRuns() {
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<void>>();
  return {
    /** Runs `run` every `intervalMs`; a failure is the caller's to report (`run` should not throw). */
    every(intervalMs: number, run: () => Promise<void>): void {
      const timer = setInterval(() => {
        const going = run().finally(() => running.delete(going));
        running.add(going);
      }, intervalMs);
      // The timers alone do not keep the process alive.
      timer.unref();
      timers.push(timer);
    },
    async stop(): Promise<void> {
      timers.forEach(clearInterval);
      await Promise.allSettled(running);
    },
  };
}
