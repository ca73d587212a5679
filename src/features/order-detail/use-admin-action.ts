import { useCallback, useState } from 'react';
import { errorText, logErrorDetails } from '../../api/errors.ts';
import { toast } from '../../ui/toasts/toast-store.ts';

/**
 * One admin action at a time on the order: while a call is out every control waits, its success
 * is said and the order re-read (the lab's answer is what shows); a failure is said in the lab's
 * words, the order re-read too, and nothing on screen pretends it happened.
 */
export function useAdminAction(onChanged: () => void) {
  const [busy, setBusy] = useState<string | null>(null);
  const run = useCallback(
    async (label: string, call: () => Promise<unknown>, done: string): Promise<boolean> => {
      setBusy(label);
      try {
        await call();
        toast.success(done);
        onChanged();
        return true;
      } catch (err) {
        logErrorDetails(err);
        toast.error(`${label} failed: ${errorText(err)}`);
        // Read again all the same: a failure may have left something the lab now shows (a refund
        // the provider did not answer stays pending).
        onChanged();
        return false;
      } finally {
        setBusy(null);
      }
    },
    [onChanged],
  );
  return { busy, run };
}
