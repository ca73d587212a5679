import { Dexie } from 'dexie';
import { useEffect, useRef, useState } from 'react';

/**
 * The upload screen reads IndexedDB again at most this often while it changes: a bar or a count
 * a quarter of a second late is not seen, and the upload worker writes many times a second.
 */
export const REREAD_GAP_MS = 250;

/**
 * A query of IndexedDB kept up to date like Dexie's useLiveQuery, but paced: every change to the
 * database (this page's, or the upload worker's, which Dexie relays between contexts) asks for a
 * re-read, and re-reads come at most every REREAD_GAP_MS, one for any number of changes. It answers
 * its last result again while nothing shown changed (`same`), so React skips the render. With
 * useLiveQuery each write of the worker (each photo's state, each thumbnail, each photo accepted:
 * several a photo) re-ran the screen's four queries and their renders at once, which held the
 * page's thread through a large upload (docs/performance-notes.md §7).
 * Only writes to `tables` (of the database named `dbName`) ask: the worker's part records, stored
 * files and thumbnails (several writes a photo) change nothing the screen's counts and lists read.
 */
export function usePacedQuery<T>(query: () => Promise<T>, deps: unknown[], initial: T, same: (a: T, b: T) => boolean, watch: { dbName: string; tables: readonly string[] }): T {
  const [value, setValue] = useState<T>(initial);
  const last = useRef<T>(initial);
  useEffect(() => {
    let stopped = false;
    let running = false;
    let again = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let lastRun = Number.NEGATIVE_INFINITY;
    const run = async () => {
      timer = null;
      running = true;
      again = false;
      lastRun = performance.now();
      try {
        const next = await query();
        if (!stopped && !same(last.current, next)) {
          last.current = next;
          setValue(next);
        }
      } catch (err) {
        // The next change reads again; the screen keeps what it shows.
        console.error('upload screen read', err);
      } finally {
        running = false;
      }
      if (again) schedule();
    };
    function schedule() {
      if (stopped || timer !== null) return;
      if (running) {
        again = true;
        return;
      }
      timer = setTimeout(() => void run(), Math.max(0, lastRun + REREAD_GAP_MS - performance.now()));
    }
    const prefixes = watch.tables.map((t) => `idb://${watch.dbName}/${t}/`);
    // Dexie names each changed part `idb://<database>/<table>/<index or nothing or :dels>`.
    const onChange = (parts: Record<string, unknown>) => {
      if (Object.keys(parts).some((part) => prefixes.some((p) => part.startsWith(p)))) schedule();
    };
    Dexie.on('storagemutated', onChange);
    void run();
    return () => {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      Dexie.on.storagemutated.unsubscribe(onChange);
    };
    // The caller's deps name what the query reads, as with useLiveQuery; `same` is fixed.
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return value;
}
