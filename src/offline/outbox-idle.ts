/**
 * Whether this page is sending its outbox now, and who waits for it to stop. Kept apart from the
 * sender (outbox-sync.ts), so a screen can wait for a send without loading the sender: a page that
 * never loaded it is sending nothing.
 */
let sending = false;
const waiters: (() => void)[] = [];

/** The sender says when it starts and stops; stopping lets every waiter go. */
export function markSending(on: boolean): void {
  sending = on;
  if (!on) for (const done of waiters.slice()) done();
}

/**
 * Resolves once this page sends nothing (at once when it is not sending), or after maxMs at the
 * latest: whatever the drain's outcome (all sent, waiting for a retry, offline), it has stopped.
 */
export function outboxIdle(maxMs: number): Promise<void> {
  if (!sending) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timeout);
      const at = waiters.indexOf(done);
      if (at >= 0) waiters.splice(at, 1);
      resolve();
    };
    const timeout = setTimeout(done, maxMs);
    waiters.push(done);
  });
}
