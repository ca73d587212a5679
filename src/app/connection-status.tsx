import { useLiveQuery } from 'dexie-react-hooks';
import { useSession } from '../api/session.ts';
import { isOnline, useConnectivity } from '../offline/connectivity.ts';
import { labDb } from '../offline/db.ts';
import { RUNNING_VERSION } from './app-update.ts';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Always visible: online or offline, and how many changes and uploads are waiting to be sent. */
export function ConnectionStatus() {
  const online = useConnectivity(isOnline);
  const owner = useSession((s) => s.actingAs?.email ?? s.session?.email ?? '');
  const changes = useLiveQuery(() => labDb.outbox.where('owner').equals(owner).count(), [owner], 0);
  const uploads = useLiveQuery(() => labDb.uploads.where('owner').equals(owner).count(), [owner], 0);

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
