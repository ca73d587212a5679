import { useMemo, useState } from 'react';
import { Link, useParams } from '../../ui/router.tsx';
import { useSession } from '../../api/session.ts';
import { ROUTES } from '../../app/routes.ts';
import { routePath } from '../../domain/paths.ts';
import { formatBytes, formatSpeed, formatTimeLeft, secondsLeft } from '../../upload/shared/upload-speed.ts';
import { isOnline, useConnectivity } from '../../offline/connectivity.ts';
import { orderQueueIds } from '../../upload/page/order-photos.ts';
import { useUploadProgress } from '../../upload/page/upload-progress.ts';
import { addPhotos, forgetRejections, startUploadQueue } from '../../upload/page/uploads.ts';
import { PhotoDropZone } from './photo-drop-zone.tsx';
import { PhotoGrid } from './photo-grid.tsx';
import { QueuedFileRow, type RowActions } from './queued-file-row.tsx';
import { RejectedList } from './rejected-list.tsx';
import { PAGE, useLabPhotoUpdates, useOrderInfo, useOrderUpload } from './use-order-upload.ts';
import './upload.css';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
export const WAITING_FOR_CONNECTION = 'Waiting for a connection';

/**
 * The overall bar, its figures and PAUSE ALL / RESUME ALL. It alone follows the live byte counts
 * (four times a second while sending), so those ticks re-render this block, not the whole screen
 * with its rows and thumbnails (a long main-thread task on a busy machine, docs/performance-notes.md §7).
 */
function OverallProgress({ waiting, active, paused, onAll }: { waiting: boolean; active: boolean; paused: boolean; onAll: (what: 'pause' | 'resume') => void }) {
  const overall = useUploadProgress((s) => s.overall);
  const timeLeft = formatTimeLeft(secondsLeft(overall.total - overall.sent, overall.bytesPerSecond));
  return (
    <div className="overall">
      <progress
        max={overall.total || 1}
        value={overall.sent}
        aria-label="All uploads"
        aria-valuetext={`${formatBytes(overall.sent)} of ${formatBytes(overall.total)}`}
      />
      <p className="muted">
        {[`${formatBytes(overall.sent)} of ${formatBytes(overall.total)}`, waiting ? '' : formatSpeed(overall.bytesPerSecond), waiting ? '' : timeLeft].filter(Boolean).join(' · ')}
      </p>
      <div className="overall-actions">
        {active ? (
          <button type="button" className="button" onClick={() => onAll('pause')}>
            PAUSE ALL
          </button>
        ) : null}
        {paused ? (
          <button type="button" className="button" onClick={() => onAll('resume')}>
            RESUME ALL
          </button>
        ) : null}
      </div>
    </div>
  );
}

/** /lab-orders/:id/upload-progress (docs/orders.md §2): choose photos, watch them arrive, go on to products. */
export function UploadProgressScreen() {
  const { id: guid = '' } = useParams();
  const owner = useSession((s) => s.actingAs?.email ?? s.session?.email ?? '');
  const online = useConnectivity(isOnline);
  const [photoLimit, setPhotoLimit] = useState(PAGE);
  const [choosing, setChoosing] = useState(false);
  const [adding, setAdding] = useState(false);
  const [note, setNote] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const order = useOrderInfo(owner, guid);
  const { counts, queue, photos, rejections } = useOrderUpload(owner, guid, photoLimit, PAGE);
  const queueWaiting = useUploadProgress((s) => s.waitingForConnection);
  useLabPhotoUpdates(owner, guid, counts.accepted, counts.active > 0);

  // One count: the photos of the order (arrived or on their way); rejected files are never in it.
  const inOrder = counts.accepted + counts.pending;
  const chosen = inOrder + counts.rejected;
  const waiting = counts.active > 0 && (queueWaiting || !online);
  const phase =
    counts.active > 0
      ? counts.processing >= counts.active
        ? 'processing'
        : 'uploading'
      : counts.paused > 0
        ? 'paused'
        : counts.failed > 0
          ? 'stuck'
          : chosen > 0
            ? 'complete'
            : 'idle';
  const closed = order.state === 'loaded' && order.status !== 'open';
  const showPicker = !closed && order.state !== 'missing' && (phase === 'idle' || choosing);

  const onFiles = async (files: File[]) => {
    setAdding(true);
    setNote(null);
    try {
      const result = await addPhotos(owner, guid, files);
      if (!result.ok) setNote({ kind: 'error', text: result.message });
      else {
        // How many arrive and how many were rejected is the summary's to say, live: a count
        // here would go stale when the content check rejects a photo after it was chosen.
        setNote(result.alreadyQueued ? { kind: 'ok', text: `${plural(result.alreadyQueued, 'photo was', 'photos were')} already waiting.` } : null);
        setChoosing(false);
      }
    } catch (err) {
      setNote({ kind: 'error', text: `These photos could not be kept on this device: ${err instanceof Error ? err.message : String(err)}` });
    } finally {
      setAdding(false);
    }
  };

  // One object for the owner's session, so rows that did not change do not re-render.
  const actions = useMemo<RowActions>(() => {
    const ownQueue = () => startUploadQueue(owner);
    return {
      pause: (id) => void ownQueue().pause([id]),
      resume: (id) => void ownQueue().resume([id]),
      retry: (id) => void ownQueue().retry(id),
      remove: (id) => void ownQueue().remove(id),
    };
  }, [owner]);
  const all = async (what: 'pause' | 'resume') => {
    const ids = await orderQueueIds(owner, guid);
    const running = startUploadQueue(owner);
    await (what === 'pause' ? running.pause(ids) : running.resume(ids));
  };

  const heading = {
    idle: 'UPLOAD PHOTOS',
    uploading: 'UPLOADING',
    processing: 'PROCESSING',
    paused: 'UPLOAD PAUSED',
    stuck: 'SOME PHOTOS COULD NOT BE SENT',
    complete: 'UPLOAD COMPLETE',
  }[phase];

  return (
    <section className="upload-page">
      <header className="upload-header">
        <p className="muted">{order.state === 'loaded' ? order.name : 'Lab order'}</p>
        <h1>{heading}</h1>
      </header>
      {order.state === 'missing' ? (
        <p role="alert" className="load-error">
          ERROR LOADING: {order.message}
        </p>
      ) : null}
      {closed ? <p role="alert" className="load-error">Order needs to be in open status to upload photos.</p> : null}

      {chosen > 0 ? (
        <div className="upload-summary" role="status">
          {inOrder > 0 ? (
            <p className="upload-count">
              {counts.accepted} of {inOrder} photos uploaded
            </p>
          ) : null}
          {counts.rejected ? <p className="upload-rejected-count">{plural(counts.rejected, 'photo', 'photos')} rejected</p> : null}
          {counts.failed ? <p className="upload-failed-count">{plural(counts.failed, 'photo', 'photos')} could not be sent</p> : null}
        </div>
      ) : null}

      {waiting ? (
        <p className="offline-note waiting-note" role="status">
          <strong>{WAITING_FOR_CONNECTION}</strong>: your photos are kept on this device and upload as soon as the lab can be reached.
        </p>
      ) : null}

      {counts.pending > 0 ? <OverallProgress waiting={waiting} active={counts.active > 0} paused={counts.paused > 0} onAll={(what) => void all(what)} /> : null}

      {note ? (
        <p className={note.kind === 'error' ? 'form-error' : 'notice'} role={note.kind === 'error' ? 'alert' : 'status'}>
          {note.text}
        </p>
      ) : null}
      {showPicker ? <PhotoDropZone onFiles={(files) => void onFiles(files)} busy={adding} /> : null}

      {phase !== 'idle' ? (
        <div className="upload-next">
          {!showPicker && !closed ? (
            <button type="button" className="button" onClick={() => setChoosing(true)}>
              UPLOAD MORE
            </button>
          ) : null}
          {counts.active === 0 && counts.accepted > 0 ? (
            <Link className="button primary" to={routePath(ROUTES.orderBuilder, { id: guid })}>
              SELECT PRODUCTS
            </Link>
          ) : null}
        </div>
      ) : null}

      {queue.length ? (
        <section aria-label="Photos being uploaded">
          <ul className="queued-list">
            {queue.map((entry) => (
              <QueuedFileRow key={entry.id} entry={entry} waiting={waiting} actions={actions} />
            ))}
          </ul>
          {counts.pending > queue.length ? <p className="muted">and {plural(counts.pending - queue.length, 'more photo', 'more photos')} waiting</p> : null}
        </section>
      ) : null}

      <RejectedList rejections={rejections} onDismiss={() => void forgetRejections(owner, guid)} />
      <PhotoGrid photos={photos} total={counts.accepted} onMore={() => setPhotoLimit((n) => n + PAGE)} />
    </section>
  );
}
