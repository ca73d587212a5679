import { useState, type DragEvent } from 'react';
import { droppedFiles } from './dropped-files.ts';

export const SELECT_PHOTOS = 'SELECT PHOTOS TO UPLOAD';
/** The picker offers photos; the worker checks every file's bytes whatever the picker let through. */
const ACCEPT = 'image/jpeg,image/png,.jpg,.jpeg,.png';

/** The JPEG/PNG drop zone with SELECT PHOTOS TO UPLOAD (orders.md §2): a real, labelled file input. */
export function PhotoDropZone({ onFiles, busy }: { onFiles: (files: File[]) => void; busy: boolean }) {
  const [over, setOver] = useState(false);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (busy) return;
    droppedFiles(e.dataTransfer).then(onFiles, (err: unknown) => console.error('could not read the dropped files', err));
  };

  return (
    <section
      className={`drop-zone${over ? ' is-over' : ''}`}
      aria-label="Drop JPEG or PNG photos here"
      onDragOver={(e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <p className="drop-zone-title">Drop JPEG or PNG photos here</p>
      <p className="muted">or a whole folder of them, up to 200 MB each</p>
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
