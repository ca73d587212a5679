import { useEffect, useState } from 'react';

/** A module fetched once, on demand, and kept: `load` starts (or joins) the fetch, `current` is it once in. */
export interface ModuleLoader<T> {
  load(): Promise<T>;
  current(): T | undefined;
}

export function moduleLoader<T>(importer: () => Promise<T>): ModuleLoader<T> {
  let fetching: Promise<T> | null = null;
  let loaded: T | undefined;
  return {
    load: () =>
      (fetching ??= importer().then(
        (module) => (loaded = module),
        (error: unknown) => {
          // A later render asks again (a dropped connection, a deploy's renamed chunk).
          fetching = null;
          throw error;
        },
      )),
    current: () => loaded,
  };
}

/**
 * The module once it is in (fetched when `wanted`), else null: the caller shows its own
 * placeholder meanwhile. Not React.lazy for parts that appear inside a screen already on show: a
 * lazy part suspends, its boundary commits the fallback, and React then reveals the part no sooner
 * than its FALLBACK_THROTTLE_MS after that fallback, however soon the code came, so an admin's
 * order panel waited that long whatever the link (docs/performance-notes.md §3).
 * A failed fetch is thrown to the route's error boundary, as a screen's own code is.
 */
export function useModule<T>(loader: ModuleLoader<T>, wanted = true): T | null {
  const module = loader.current();
  const [, arrived] = useState(0);
  const [failed, setFailed] = useState<{ error: unknown } | null>(null);
  useEffect(() => {
    if (!wanted || module !== undefined) return;
    let live = true;
    loader.load().then(
      () => live && arrived((n) => n + 1),
      (error: unknown) => live && setFailed({ error }),
    );
    return () => {
      live = false;
    };
  }, [loader, wanted, module]);
  if (failed) throw failed.error;
  return module ?? null;
}
