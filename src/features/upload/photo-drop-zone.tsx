import { useState, useSyncExternalStore, type DragEvent } from 'react';
import { droppedFiles } from './dropped-files.ts';

/**
 * A touch screen (the primary pointer is coarse: phones, tablets) cannot drop files: there the
 * zone offers choosing. The spec has words only for the drop zone and its button; these say what
 * a finger can do.
 */
const COARSE = '(pointer: coarse)';
const WORDS = {
  drop: { title: 'Drop JPEG or PNG photos here', detail: 'or a whole folder of them, up to 200 MB each' },
  choose: { title: 'Choose JPEG or PNG photos to upload', detail: 'from your photos or files, up to 200 MB each' },
};

const coarseQuery = () => (typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(COARSE) : null);

function usePointerIsCoarse(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = coarseQuery();
      query?.addEventListener('change', changed);
      return () => query?.removeEventListener('change', changed);
    },
    () => coarseQuery()?.matches ?? false,
    () => false,
  );
}

export const SELECT_PHOTOS = 'SELECT PHOTOS TO UPLOAD';
/** The picker offers photos; the worker checks every file's bytes whatever the picker let through. */
const ACCEPT = 'image/jpeg,image/png,.jpg,.jpeg,.png';

/** The JPEG/PNG drop zone with SELECT PHOTOS TO UPLOAD (docs/orders.md §2): a real, labelled file input. */
export function PhotoDropZone({ onFiles, busy }: { onFiles: (files: File[]) => void; busy: boolean }) {
  const [over, setOver] = useState(false);
  const words = usePointerIsCoarse() ? WORDS.choose : WORDS.drop;

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (busy) return;
    droppedFiles(e.dataTransfer).then(onFiles, (err: unknown) => console.error('could not read the dropped files', err));
  };

  return (
    <section
      className={`drop-zone${over ? ' is-over' : ''}`}
      aria-label={words.title}
      onDragOver={(e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <p className="drop-zone-title">{words.title}</p>
      <p className="muted">{words.detail}</p>
      <label className={`button primary file-button${busy ? ' is-busy' : ''}`}>
        {SELECT_PHOTOS}
        <input
          type="file"
          multiple
          accept={ACCEPT}
          disabled={busy}
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            // Cleared, so choosing the same files again still fires a change.
            e.target.value = '';
            if (files.length) onFiles(files);
          }}
        />
      </label>
    </section>
  );
}
