import { memo, useEffect, useState } from 'react';
import { formatBytes, formatSpeed, formatTimeLeft, secondsLeft } from '../../upload/shared/upload-speed.ts';
import { labDb, type UploadEntry } from '../../offline/db.ts';
import { useUploadProgress, type FileProgress } from '../../upload/page/upload-progress.ts';
import { useObjectUrl, useVisible } from '../../ui/use-visible.ts';

export interface RowActions {
  pause(id: string): void;
  resume(id: string): void;
  retry(id: string): void;
  remove(id: string): void;
}

/** Seconds until a retry, ticking once a second from the timer's own clock reads. */
function useCountdown(at: number | null): number | null {
  const [left, setLeft] = useState<{ at: number; seconds: number } | null>(null);
  useEffect(() => {
    if (at === null) return undefined;
    const tick = () => setLeft({ at, seconds: Math.max(0, Math.ceil((at - Date.now()) / 1000)) });
    const first = window.setTimeout(tick, 0);
    const timer = window.setInterval(tick, 1000);
    return () => {
      window.clearTimeout(first);
      window.clearInterval(timer);
    };
  }, [at]);
  return at !== null && left?.at === at ? left.seconds : null;
}

function describe(entry: UploadEntry, live: FileProgress | undefined, waiting: boolean, retryIn: number | null): string {
  if (entry.state === 'failed') return 'Failed';
  if (entry.paused) return 'Paused';
  if (entry.state === 'completing' || entry.state === 'confirming' || live?.phase === 'processing') return 'Processing';
  if (entry.state === 'queued') return live?.phase === 'checking' ? 'Checking' : 'Waiting to be checked';
  // The page says once why everything waits; each row just waits.
  if (waiting) return 'Waiting';
  if (live?.phase === 'retrying' && retryIn !== null) return retryIn > 0 ? `Trying again in ${retryIn} s` : 'Trying again';
  if (live?.phase === 'sending' && live.sent > 0) {
    const extras = [formatSpeed(live.bytesPerSecond), formatTimeLeft(secondsLeft(entry.size - live.sent, live.bytesPerSecond))].filter(Boolean);
    return ['Uploading', ...extras].join(' · ');
  }
  return 'Waiting';
}

interface RowProps {
  entry: UploadEntry;
  waiting: boolean;
  actions: RowActions;
}

/**
 * The worker's thumbnail of a queued photo, read once when its row is shown, and again once the
 * photo's check is done (the thumbnail is kept before the photo leaves 'queued'). Not a live
 * query: a live query per row, up to a hundred of them, each took note of every write the queue
 * made, hundreds a minute, on the page's thread (docs/performance-notes.md §7).
 */
function useQueuedThumbnail(id: string, visible: boolean, checked: boolean): Blob | undefined {
  const [thumb, setThumb] = useState<{ id: string; blob: Blob } | null>(null);
  useEffect(() => {
    if (!visible) return undefined;
    let stale = false;
    labDb.uploadThumbnails.get(id).then(
      (row) => {
        if (!stale && row) setThumb({ id, blob: row.blob });
      },
      () => {
        // Unreadable: the row shows its frame.
      },
    );
    return () => {
      stale = true;
    };
    // `checked` is not read: it makes the row look again once the check kept the thumbnail.
    // oxlint-disable-next-line react/exhaustive-effect-dependencies
  }, [id, visible, checked]);
  return thumb?.id === id ? thumb.blob : undefined;
}

/** A re-read of the queue gives new objects for every row: only a row whose shown fields changed re-renders. */
const sameRow = (a: RowProps, b: RowProps) =>
  a.waiting === b.waiting &&
  a.actions === b.actions &&
  (['id', 'name', 'size', 'state', 'paused', 'error'] as const).every((k) => a.entry[k] === b.entry[k]);

/** One photo in the queue: thumbnail, state, its own progress bar, and what the user can do. */
export const QueuedFileRow = memo(function QueuedFileRow({ entry, waiting, actions }: RowProps) {
  const [ref, visible] = useVisible<HTMLLIElement>();
  // Only visible rows read their thumbnail, and only while visible.
  const thumb = useQueuedThumbnail(entry.id, visible, entry.state !== 'queued');
  const url = useObjectUrl(thumb, visible, entry.id);
  const live = useUploadProgress((s) => s.files[entry.id]);
  const retryIn = useCountdown(live?.phase === 'retrying' ? live.retryAt : null);
  const sent = entry.state === 'completing' || entry.state === 'confirming' ? entry.size : (live?.sent ?? 0);
  const status = describe(entry, live, waiting, retryIn);

  return (
    <li ref={ref} className={`queued-file state-${entry.state}${entry.paused ? ' is-paused' : ''}`}>
      {url ? <img className="queued-thumb" src={url} alt="" /> : <span className="queued-thumb photo-placeholder" aria-hidden="true" />}
      <div className="queued-info">
        <p className="queued-name">
          <span className="file-name">{entry.name}</span> <span className="muted">{formatBytes(entry.size)}</span>
        </p>
        <progress max={entry.size || 1} value={sent} aria-label={`Upload of ${entry.name}`} aria-valuetext={`${formatBytes(sent)} of ${formatBytes(entry.size)}`} />
        <p className="queued-status" aria-live="off">
          {status}
          {entry.state === 'failed' && entry.error ? <span className="queued-error">: {entry.error}</span> : null}
        </p>
      </div>
      <div className="queued-actions">
        {entry.state === 'failed' ? (
          <button type="button" className="button" aria-label={`Retry ${entry.name}`} onClick={() => actions.retry(entry.id)}>
            RETRY
          </button>
        ) : entry.paused ? (
          <button type="button" className="button" aria-label={`Resume ${entry.name}`} onClick={() => actions.resume(entry.id)}>
            RESUME
          </button>
        ) : (
          <button type="button" className="button" aria-label={`Pause ${entry.name}`} onClick={() => actions.pause(entry.id)}>
            PAUSE
          </button>
        )}
        <button type="button" className="button link-button" aria-label={`Remove ${entry.name}`} onClick={() => actions.remove(entry.id)}>
          REMOVE
        </button>
      </div>
    </li>
  );
}, sameRow);
