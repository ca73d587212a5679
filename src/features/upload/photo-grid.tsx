import { memo } from 'react';
import type { PhotoEntry } from '../../offline/db.ts';
import { useObjectUrl, useVisible } from '../../ui/use-visible.ts';

/** One accepted photo: the device's own thumbnail while visible, else the server's, else a frame. */
const PhotoTile = memo(
  function PhotoTile({ photo }: { photo: PhotoEntry }) {
  const [ref, visible] = useVisible<HTMLLIElement>();
  const local = useObjectUrl(photo.thumbnail, visible, photo.id);
  const src = local ?? (visible ? photo.smallestPhotoUrl : undefined);
  return (
    <li ref={ref} className="photo-tile">
      {src ? <img src={src} alt={photo.name} /> : <span className="photo-placeholder" role="img" aria-label={photo.name} />}
      <span className="photo-name">{photo.name}</span>
      {photo.unreadableReason ? (
        <p className="rejected-reason">
          <strong className="rejected-mark">CANNOT BE PRINTED</strong> {photo.unreadableReason}
        </p>
      ) : null}
    </li>
  );
  },
  // A re-read of the table gives new objects for the same photo: only a real change re-renders.
  (a, b) =>
    a.photo.id === b.photo.id && a.photo.name === b.photo.name && a.photo.smallestPhotoUrl === b.photo.smallestPhotoUrl &&
    !a.photo.thumbnail === !b.photo.thumbnail &&
    a.photo.unreadableReason === b.photo.unreadableReason,
);

/** The accepted photos as thumbnails (docs/orders.md §2), in the builder's order, a page at a time. */
export function PhotoGrid({ photos, total, onMore }: { photos: readonly PhotoEntry[]; total: number; onMore: () => void }) {
  if (!photos.length) return null;
  return (
    <section className="photo-section" aria-label="Uploaded photos">
      <h2>UPLOADED PHOTOS</h2>
      <ul className="photo-grid">
        {photos.map((p) => (
          <PhotoTile key={p.id} photo={p} />
        ))}
      </ul>
      {total > photos.length ? (
        <button type="button" className="button" onClick={onMore}>
          SHOW MORE PHOTOS ({total - photos.length} more)
        </button>
      ) : null}
    </section>
  );
}
