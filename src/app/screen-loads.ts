import { useSyncExternalStore } from 'react';

/**
 * How many screens' code is on its way. Navigations are transitions: while the next screen's
 * chunk downloads React keeps the current screen on show, and this count makes it inert and busy
 * (src/app/screen-frame.tsx).
 */
let pending = 0;
const listeners = new Set<() => void>();

const changed = (by: number) => {
  pending += by;
  for (const listener of listeners) listener();
};

/** Counts a screen's code as on its way until the import settles. */
export function trackScreenLoad<T>(load: Promise<T>): Promise<T> {
  changed(1);
  return load.finally(() => changed(-1));
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Whether a screen's code is still downloading. */
export function useScreenLoading(): boolean {
  return useSyncExternalStore(subscribe, () => pending > 0);
}
