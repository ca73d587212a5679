import { useEffect, useRef } from 'react';
import './confirm-dialog.css';

export interface ConfirmDialogProps {
  title: string;
  message: string;
  cancel: string;
  confirm: string;
  onCancel: () => void;
  onConfirm: () => void;
  /** The answer is being carried out: both buttons wait, and the confirm button says so. */
  busy?: { label: string } | null;
  /** A confirmation that destroys something (CLEAR CART) is drawn as such. */
  destructive?: boolean;
}

/**
 * A modal question with two answers, on the native <dialog>: focus stays inside, Escape cancels,
 * the page behind is inert. Focus starts on the cancelling answer, so a stray Enter never does
 * the thing asked about. Shown while mounted: screens render it only while they ask.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) {
      dialog.showModal();
      cancelRef.current?.focus();
    }
    return () => dialog?.close();
  }, []);
  const busy = Boolean(props.busy);
  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-message"
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) props.onCancel();
      }}
    >
      <h2 id="confirm-title">{props.title}</h2>
      <p id="confirm-message">{props.message}</p>
      <div className="dialog-actions">
        <button ref={cancelRef} type="button" className="button" onClick={props.onCancel} disabled={busy}>
          {props.cancel}
        </button>
        <button type="button" className={`button ${props.destructive ? 'danger' : 'primary'}`} onClick={props.onConfirm} disabled={busy}>
          {props.busy ? props.busy.label : props.confirm}
        </button>
      </div>
    </dialog>
  );
}
