import { useEffect, useRef } from 'react';

/**
 * A modal question with two answers, on the native <dialog> (focus is kept inside, Escape
 * cancels, the page behind is inert), for the crop check and the low-resolution confirmation.
 */
export function ConfirmDialog(props: { title: string; message: string; cancel: string; confirm: string; onCancel: () => void; onConfirm: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-message"
      onCancel={(e) => {
        e.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id="confirm-title">{props.title}</h2>
      <p id="confirm-message">{props.message}</p>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={props.onCancel}>
          {props.cancel}
        </button>
        <button type="button" className="button primary" onClick={props.onConfirm}>
          {props.confirm}
        </button>
      </div>
    </dialog>
  );
}
