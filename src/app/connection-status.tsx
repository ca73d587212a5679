import { useEffect, useState } from 'react';
import { useSession } from '../api/session.ts';
import { afterFirstScreen } from '../offline/after-first-screen.ts';
import { isOnline, useConnectivity } from '../offline/connectivity.ts';
import type { WaitingWork } from '../offline/waiting-work.ts';
import { RUNNING_VERSION } from './app-update.ts';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Follows the signed-in user's queued work in IndexedDB. Dexie is imported on demand: nobody has
 * queued work before signing in, so /login opens without IndexedDB's code.
 */
function useWaitingWork(owner: string): WaitingWork | null {
  const [seen, setSeen] = useState<WaitingWork & { owner: string }>({ owner: '', changes: 0, uploads: 0 });
  useEffect(() => {
    if (!owner) return undefined;
    let stop: (() => void) | null = null;
    let ended = false;
    // Counted once the first screen is shown: IndexedDB's code is not what the user came to see.
    afterFirstScreen()
      .then(() => import('../offline/waiting-work.ts'))
      .then(
        ({ watchWaitingWork }) => {
          if (!ended) stop = watchWaitingWork(owner, (work) => setSeen({ owner, ...work }));
        },
        (err: unknown) => console.error('could not count waiting work', err),
      );
    return () => {
      ended = true;
      stop?.();
    };
  }, [owner]);
  // Until it is counted (just after sign-in or a page load) nothing is claimed either way.
  if (!owner) return { changes: 0, uploads: 0 };
  return seen.owner === owner ? seen : null;
}

/** Always visible: online or offline, and how many changes and uploads are waiting to be sent. */
export function ConnectionStatus() {
  const online = useConnectivity(isOnline);
  const owner = useSession((s) => s.actingAs?.email ?? s.session?.email ?? '');
  const work = useWaitingWork(owner);
  const { changes, uploads } = work ?? { changes: 0, uploads: 0 };

  const waiting = [changes ? plural(changes, 'change', 'changes') : '', uploads ? plural(uploads, 'upload', 'uploads') : '']
    .filter(Boolean)
    .join(' and ');
  const text = waiting ? `${waiting} waiting to be sent` : online ? 'All changes sent' : 'Nothing waiting to be sent';

  return (
    <div className={`connection-status ${online ? 'is-online' : 'is-offline'}`} role="status" aria-label="Connection and sync" title={`App version ${RUNNING_VERSION}`}>
      <span className="connection-dot" aria-hidden="true" />
      <strong>{online ? 'Online' : 'Offline'}</strong>
      {work && <span>· {text}</span>}
    </div>
  );
}
