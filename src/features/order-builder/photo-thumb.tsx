import type { PhotoEntry } from '../../offline/db.ts';
import { useObjectUrl } from '../../ui/use-visible.ts';

/**
 * A photo's thumbnail: the one this device made at upload (works offline), else the lab's. Only
 * mounted tiles call this (the strip and grid are windowed), so object URLs exist for a screenful.
 */
export function PhotoThumb({ photo }: { photo: PhotoEntry }) {
  const local = useObjectUrl(photo.thumbnail, true, photo.id);
  const src = local ?? photo.smallestPhotoUrl;
  return src ? <img src={src} alt="" draggable={false} /> : <span className="photo-placeholder" aria-hidden="true" />;
}

/** The image the cropper shows: the lab's preview when online, else this device's thumbnail. */
export function useCropImage(photo: PhotoEntry): string | null {
  const online = typeof navigator === 'undefined' || navigator.onLine;
  const local = useObjectUrl(photo.thumbnail, !(online && photo.previewUrl), photo.id);
  if (online && photo.previewUrl) return photo.previewUrl;
  return local ?? photo.smallestPhotoUrl ?? null;
}

/**
 * What the soft proof starts from: the same picture the cropper shows (the lab's preview when
 * online, else this device's thumbnail), as a URL the worker fetches or the Blob itself.
 */
export function cropProofSource(photo: PhotoEntry): Blob | string | null {
  const online = typeof navigator === 'undefined' || navigator.onLine;
  if (online && photo.previewUrl) return photo.previewUrl;
  return photo.thumbnail ?? photo.smallestPhotoUrl ?? null;
}
