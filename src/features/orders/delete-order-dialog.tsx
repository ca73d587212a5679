import { useState } from 'react';
import { errorText, logErrorDetails } from '../../api/errors.ts';
import type { LabOrderListAttributes } from '../../api/lab-orders.ts';
import { deleteOrder } from '../../api/orders-admin.ts';
import { DELETE_ORDER_CONFIRM } from './order-actions.ts';
import { labDb } from '../../offline/db.ts';
import { forgetOrder } from '../../offline/forget-order.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';

/**
 * The trash icon's question (docs/orders.md §5) and the delete itself. Lazy: the list's first load
 * does not carry it (docs/performance-notes.md §8 budget); it arrives with the first tap on a trash icon.
 */
export function DeleteOrderDialog({ order, onClose, onDeleted }: { order: LabOrderListAttributes; onClose: () => void; onDeleted: () => void }) {
  const [busy, setBusy] = useState(false);
  const confirm = () => {
    setBusy(true);
    deleteOrder(order.guid)
      // The order leaves the device's table, so every list showing it loses it at once.
      .then(() => forgetOrder(labDb, order.guid).catch(logErrorDetails))
      .then(
        () => {
          toast.success(`${order.order_name} is deleted.`);
          onClose();
          onDeleted();
        },
        (err: unknown) => {
          logErrorDetails(err);
          toast.error(`${order.order_name} could not be deleted: ${errorText(err)}`);
          onClose();
        },
      );
  };
  return (
    <ConfirmDialog
      title="DELETE ORDER"
      message={DELETE_ORDER_CONFIRM}
      cancel="KEEP ORDER"
      confirm="DELETE"
      destructive
      busy={busy ? { label: 'deleting…' } : null}
      onCancel={onClose}
      onConfirm={confirm}
    />
  );
}
