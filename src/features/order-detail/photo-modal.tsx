import { useEffect, useRef } from 'react';

export interface ModalPhoto {
  name: string;
  /** The screen-size image. */
  url: string;
  /** The original, for a closer look. */
  originalUrl: string;
}

/**
 * A line item's photo, large (docs/orders.md §2: line-item cards have a photo modal), on the native
 * <dialog>: Escape and CLOSE close it, focus stays inside and returns to the card after.
 */
export function PhotoModal({ photo, onClose }: { photo: ModalPhoto; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    // The button that opened it: the dialog is removed from the page when it closes, and a removed
    // dialog gives focus back to no one, so it is given back here.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="photo-modal"
      aria-label={photo.name}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        // A click on the backdrop (the dialog itself, outside its content) closes it.
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="photo-modal-body">
        <img src={photo.url} alt={photo.name} />
        <div className="dialog-actions">
          <a className="button" href={photo.originalUrl} target="_blank" rel="noreferrer">
            OPEN ORIGINAL
          </a>
          <button type="button" className="button primary" onClick={onClose} autoFocus>
            CLOSE
          </button>
        </div>
      </div>
    </dialog>
  );
}
