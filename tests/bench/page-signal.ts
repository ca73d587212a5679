/**
 * Waiting for a screen without Playwright touching the page. A locator's `waitFor` or a
 * `waitForFunction` evaluates Playwright's injected script in the page the first time it runs:
 * a main-thread task (seen in a trace of a fresh /lab-orders visit), landing in the middle of a
 * first load. Measured that way, the bench's own script delayed the first screen it timed and
 * counted as the page's long task (docs/performance-notes.md §1). Instead the page says when it got there,
 * with a console message (one CDP event, no work in the page's main thread beyond the call).
 */
import type { Page } from 'playwright-core';

const PREFIX = 'bench-signal:';

/** The page's statement that sends signal `name`: for init scripts that decide the moment. */
export const sendSignal = (name: string) => `console.debug(${JSON.stringify(PREFIX + name)})`;

/**
 * An init script sending signal `name` once `condition` (a JavaScript expression, checked after
 * each batch of DOM changes) holds; it then stops watching.
 */
export const signalWhen = (name: string, condition: string) => `
  {
    const watch = new MutationObserver(() => {
      if (!(${condition})) return;
      watch.disconnect();
      ${sendSignal(name)};
    });
    watch.observe(document, { childList: true, subtree: true, characterData: true });
  }
`;

/**
 * Resolves when the page sends signal `name`; ask before the navigation that leads to it. If that
 * navigation throws, the wait is never awaited: its later rejection is handled here, so it cannot
 * end the bench's process as an unhandled rejection (the navigation's own error is the one reported).
 */
export function waitForSignal(page: Page, name: string, timeout: number): Promise<unknown> {
  const signalled = page.waitForEvent('console', { predicate: (m) => m.text() === PREFIX + name, timeout });
  signalled.catch(() => {});
  return signalled;
}
