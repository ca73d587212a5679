import { liveQuery } from 'dexie';
import { useEffect, useState } from 'react';

/**
 * dexie-react-hooks' useLiveQuery, as the orders list uses it: the querier's result, read again
 * after every change of what it read (undefined until the first read; the last result stays while
 * new deps are read). Written here for the list because the library's module also sets up its
 * Y.js document support, which a photographer's /lab-orders paid for out of its JavaScript budget
 * (docs/performance-notes.md §4); the other screens use the library.
 */
export function useLiveQuery<T>(querier: () => Promise<T>, deps: readonly unknown[]): T | undefined {
  const [read, setRead] = useState<{ value?: T; error?: unknown }>({});
  useEffect(() => {
    const subscription = liveQuery(querier).subscribe({ next: (value) => setRead({ value }), error: (error: unknown) => setRead({ error }) });
    return () => subscription.unsubscribe();
    // The caller names what the querier depends on, as with useEffect itself.
    // oxlint-disable-next-line react/exhaustive-deps
  }, deps);
  // As the library does: a failed read of the device's database is the screen's error.
  if (read.error !== undefined) throw read.error;
  return read.value;
}
