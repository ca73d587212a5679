/**
 * Lets the browser run a task of its own (input, a frame) before the caller goes on: long work on
 * 1,000 line items is done a slice per task, each well under the 50 ms that delays a click.
 *
 * Never call it inside a Dexie transaction: IndexedDB commits a transaction at the end of the task
 * in which it has no request left, so a wait for another task would end it half-way.
 */
export function nextTask(): Promise<void> {
  // scheduler.yield (Chromium) continues ahead of other queued tasks of the page; the DOM's types
  // of this TypeScript do not have it yet.
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  // A message, not setTimeout: a hidden tab clamps timeouts to a second or more.
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.addEventListener(
      'message',
      () => {
        channel.port1.close();
        resolve();
      },
      { once: true },
    );
    // A port listened to with addEventListener delivers only once started.
    channel.port1.start();
    channel.port2.postMessage(null);
  });
}

/** Maps items a slice per task (see nextTask): `size` items, then the browser's turn. */
export async function mapInSlices<T, R>(items: readonly T[], size: number, each: (item: T, index: number) => R): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % size === 0) await nextTask();
    out.push(each(items[i] as T, i));
  }
  return out;
}

/**
 * Resolves when the browser is idle (no frame, input or task waiting), or after `timeoutMs` at
 * most; Safari has no requestIdleCallback: a task then. For work done ahead of need.
 */
export function idleTask(timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: timeoutMs });
    else void nextTask().then(resolve);
  });
}
