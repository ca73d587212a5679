import { useEffect, useState } from 'react';
import { useSession } from '../api/session.ts';
import { isOnline, useConnectivity } from '../offline/connectivity.ts';
import type { WaitingWork } from '../offline/waiting-work.ts';
import { RUNNING_VERSION } from './app-update.ts';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Follows the signed-in user's queued work in IndexedDB. Dexie is imported on demand: nobody has
 * queued work before signing in, so /login opens without IndexedDB's code.
 */
function useWaitingWork(owner: string): WaitingWork {
  const [seen, setSeen] = useState<WaitingWork & { owner: string }>({ owner: '', changes: 0, uploads: 0 });
  useEffect(() => {
    if (!owner) return undefined;
    let stop: (() => void) | null = null;
    let ended = false;
    import('../offline/waiting-work.ts').then(
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
  return seen.owner === owner ? seen : { changes: 0, uploads: 0 };
}

/** Always visible: online or offline, and how many changes and uploads are waiting to be sent. */
export function ConnectionStatus() {
  const online = useConnectivity(isOnline);
  const owner = useSession((s) => s.actingAs?.email ?? s.session?.email ?? '');
  const { changes, uploads } = useWaitingWork(owner);

  const waiting = [changes ? plural(changes, 'change', 'changes') : '', uploads ? plural(uploads, 'upload', 'uploads') : '']
    .filter(Boolean)
    .join(' and ');
  const text = waiting ? `${waiting} waiting to be sent` : online ? 'All changes sent' : 'Nothing waiting to be sent';

  return (
    <div className={`connection-status ${online ? 'is-online' : 'is-offline'}`} role="status" aria-label="Connection and sync" title={`App version ${RUNNING_VERSION}`}>
      <span className="connection-dot" aria-hidden="true" />
      <strong>{online ? 'Online' : 'Offline'}</strong>
      <span>· {text}</span>
    </div>
  );
}
