import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from '../../ui/router.tsx';
import { ApiError, errorText, logErrorDetails } from '../../api/errors.ts';
import { reorderOrder } from '../../api/order-actions.ts';
import type { OrderDetailAttributes } from '../../api/orders-detail.ts';
import { ORDER_NAME_MAX, reorderName } from '../../client-rules/order-actions-photographer.ts';
import { ROUTES } from '../../app/routes.ts';
import { routePath } from '../../domain/paths.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import '../../ui/confirm-dialog.css';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * REORDER's question: the new order's name (suggested, editable; names are unique per
 * photographer). The lab copies the photos (no upload: the stored originals are shared) and line
 * items into a new open order, and the builder opens on it. A name in use or a product no longer
 * offered is said in the lab's words, in the dialog, and nothing is made.
 */
export function ReorderDialog({ order, onClose }: { order: OrderDetailAttributes; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const [name, setName] = useState(() => reorderName(order.order_name));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) {
      dialog.showModal();
      inputRef.current?.select();
    }
    return () => dialog?.close();
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const wanted = name.trim();
    if (!wanted) {
      setProblem('Enter an order name.');
      return;
    }
    setBusy(true);
    setProblem(null);
    reorderOrder(order.guid, wanted).then(
      (answer) => {
        const made = answer.data;
        const photos = new Set(made.line_items.map((l) => l.photograph_guid)).size;
        toast.success(`${made.attributes.order_name} is ready: ${plural(made.line_items.length, 'line item')} of ${plural(photos, 'photo')} copied, nothing to upload.`);
        onClose();
        void navigate(routePath(ROUTES.orderBuilder, { id: made.attributes.guid }));
      },
      (err: unknown) => {
        logErrorDetails(err);
        // The lab's refusal (a name in use, a product no longer offered) in its own words, beside the field.
        setProblem(err instanceof ApiError && err.kind === 'server' ? err.message : errorText(err));
        setBusy(false);
      },
    );
  };

  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby="reorder-title"
      aria-describedby="reorder-message"
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onClose();
      }}
    >
      <form onSubmit={submit} noValidate className="reorder-form">
        <h2 id="reorder-title">REORDER</h2>
        <p id="reorder-message">
          A new open order with the photos and line items of {order.order_name}, at today&apos;s prices. The photos are already at the lab: nothing is uploaded again.
        </p>
        <label className="field">
          <span>New order name</span>
          <input
            ref={inputRef}
            type="text"
            value={name}
            maxLength={ORDER_NAME_MAX}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'reorder-problem' : undefined}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        {problem ? (
          <p id="reorder-problem" className="form-error" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose} disabled={busy}>
            CLOSE
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'copying…' : 'REORDER'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
