import type { RejectionEntry } from '../../offline/db.ts';
import { formatBytes } from '../../upload/shared/upload-speed.ts';

/** The files that will not be uploaded, each marked REJECTED with its reason (docs/orders.md §2). */
export function RejectedList({ rejections, onDismiss }: { rejections: readonly RejectionEntry[]; onDismiss: () => void }) {
  if (!rejections.length) return null;
  return (
    <section className="rejected-section" aria-label="Rejected files">
      <h2>REJECTED FILES</h2>
      <ul className="rejected-list">
        {rejections.map((r) => (
          <li key={r.id}>
            <strong className="rejected-mark">REJECTED</strong> <span className="file-name">{r.name}</span>{' '}
            <span className="muted">({formatBytes(r.size)})</span>
            <p className="rejected-reason">{r.reason}</p>
          </li>
        ))}
      </ul>
      <button type="button" className="link" onClick={onDismiss}>
        Clear this list
      </button>
    </section>
  );
}
