/**
 * The upload queue's one view of whether the lab is reachable (docs/architecture.md §6: the indicator, the
 * queue and the outbox read one store). Everything the queue knows about reachability passes
 * through here, so when src/offline/connectivity.ts becomes the one reachability store (with its
 * own probe of /api/v2/status) only this file changes.
 */
import { getStatus } from '../../api/auth.ts';
import { isOnline, recordRoundTrip, useConnectivity } from '../../offline/connectivity.ts';

export interface Reachability {
  reachable(): boolean;
  /** Calls back when reachability flips; returns the unsubscribe. */
  subscribe(listener: (reachable: boolean) => void): () => void;
  /**
   * One light round trip while unreachable, so a lab that came back is noticed within seconds.
   * The API client reports its outcome to the store, which flips reachable() and calls back.
   */
  probe(): Promise<void>;
  /** Whether a probe can tell anything now (the browser itself says offline: wait for its event). */
  worthProbing(): boolean;
  /**
   * A request of the upload got no answer at all (a PUT's network error): the store hears it, so
   * the queue holds and the indicator says offline until a probe or any call reaches the lab.
   */
  noAnswer(): void;
}

export const labReachability: Reachability = {
  reachable: () => isOnline(useConnectivity.getState()),
  subscribe(listener) {
    return useConnectivity.subscribe((now, before) => {
      if (isOnline(now) !== isOnline(before)) listener(isOnline(now));
    });
  },
  async probe() {
    try {
      await getStatus();
    } catch {
      // Still unreachable: the client already said so to the store.
    }
  },
  worthProbing: () => useConnectivity.getState().browserOnline,
  noAnswer: () => recordRoundTrip(false),
};
