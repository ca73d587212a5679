import { create } from 'zustand';

/**
 * Whether the lab can be reached: the browser's own flag (unreliable on its own: it says online
 * behind a dead Wi-Fi) combined with what the last API call found.
 */
export const useConnectivity = create<{ browserOnline: boolean; serverReachable: boolean }>(() => ({
  browserOnline: typeof navigator === 'undefined' ? true : navigator.onLine,
  serverReachable: true,
}));

export const isOnline = (s: { browserOnline: boolean; serverReachable: boolean }) => s.browserOnline && s.serverReachable;

/** Called by the API client after every call: any response proves the lab reachable. */
export function reportServerReachable(reachable: boolean): void {
  if (useConnectivity.getState().serverReachable !== reachable) useConnectivity.setState({ serverReachable: reachable });
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => useConnectivity.setState({ browserOnline: true, serverReachable: true }));
  window.addEventListener('offline', () => useConnectivity.setState({ browserOnline: false }));
}
