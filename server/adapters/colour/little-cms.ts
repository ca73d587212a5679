import { instantiate, type Lcms } from 'lcms-wasm';

/** LittleCMS (lcms-wasm) for the server's checks of the papers' profiles, loaded on first use. */
export type LittleCms = () => Promise<Lcms>;

/**
 * One LittleCMS per app, compiled on the first profile that arrives: most processes never check a
 * profile, so they never pay for it. A failed load is tried again on the next call.
 */
export function lazyLittleCms(load: () => Promise<Lcms> = () => instantiate()): LittleCms {
  let loading: Promise<Lcms> | null = null;
  return () => {
    const current = (loading ??= load());
    current.catch(() => {
      if (loading === current) loading = null;
    });
    return current;
  };
}
