import { whenNoCallInFlight } from '../api/client.ts';

// The longest the background work waits for the first screen: a screen whose call hangs on a bad
// link must not hold back resuming uploads or counting the work waiting to be sent.
const FIRST_SCREEN_WAIT_CAP_MS = 3_000;

let firstScreen: Promise<void> | null = null;

const loaded = () =>
  document.readyState === 'complete' ? Promise.resolve() : new Promise<void>((resolve) => window.addEventListener('load', () => resolve(), { once: true }));

// A frame, then a task: whatever the last answer changed on screen has been painted.
const painted = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

// The longest an idle moment is waited for once the data is in (a busy page still gets its
// offline bookkeeping soon).
const IDLE_WAIT_MS = 1_000;

/**
 * The main thread has nothing left to do: React renders a page of orders in slices (a
 * transition), and an idle callback runs only once the last slice is done, so the list is on
 * screen before the background work asks for anything. Safari has no requestIdleCallback: a
 * task then.
 */
const idle = () =>
  new Promise<void>((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: IDLE_WAIT_MS });
    else setTimeout(resolve, 0);
  });

/**
 * Resolves once the page has loaded, the first screen has its data and that has been painted (or
 * after FIRST_SCREEN_WAIT_CAP_MS at most). Work that only keeps this device's offline state
 * (IndexedDB's code, copies of the catalogue, resumed uploads) starts after it, so on a phone on a
 * slow link it never delays what the user came to see.
 */
export function afterFirstScreen(): Promise<void> {
  firstScreen ??= Promise.race([
    loaded()
      .then(whenNoCallInFlight)
      .then(idle)
      .then(painted),
    new Promise<void>((resolve) => setTimeout(resolve, FIRST_SCREEN_WAIT_CAP_MS)),
  ]);
  return firstScreen;
}
