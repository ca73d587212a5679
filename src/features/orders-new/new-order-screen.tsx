import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from '../../ui/router.tsx';
import { ApiError, errorLines, logErrorDetails } from '../../api/errors.ts';
import { createLabOrder, isOrderNameTaken } from '../../api/lab-order-upload.ts';
import { ROUTES } from '../../app/routes.ts';
import { routePath } from '../../domain/paths.ts';
import { isOnline, useConnectivity } from '../../offline/connectivity.ts';
import { newId } from '../../client-rules/ids.ts';
import { ErrorLines } from '../../ui/error-lines.tsx';
import { useServerCheck } from '../../ui/use-server-check.ts';
import './new-order.css';

export const ORDER_NAME_TAKEN = 'Order Name already taken. Please create a different Order Name.';
/** docs/orders.md §4: the order name's uniqueness is checked 200 ms after typing pauses. */
export const ORDER_NAME_CHECK_MS = 200;

/** /lab-orders/upload (docs/orders.md §2, NEW LAB ORDER): name the order, then upload its photos. */
export function NewOrderScreen() {
  const navigate = useNavigate();
  const online = useConnectivity(isOnline);
  const [name, setName] = useState('');
  // The server said so at submit, for this name (a race with the live check).
  const [takenAtSubmit, setTakenAtSubmit] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  // One idempotency key per name: SAVE pressed twice, or again after a lost answer, makes one order.
  const attempt = useRef<{ name: string; key: string } | null>(null);

  const trimmed = name.trim();
  const answer = useServerCheck(trimmed === '' ? null : trimmed, isOrderNameTaken, ORDER_NAME_CHECK_MS);
  const taken = answer === true || takenAtSubmit === trimmed;
  const ready = trimmed !== '' && answer === false && !taken;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready || busy) return;
    if (attempt.current?.name !== trimmed) attempt.current = { name: trimmed, key: newId() };
    setBusy(true);
    setFailure(null);
    try {
      const created = await createLabOrder(trimmed, attempt.current.key);
      void navigate(routePath(ROUTES.uploadProgress, { id: created.data.attributes.guid }));
    } catch (err) {
      logErrorDetails(err);
      if (err instanceof ApiError && err.status === 422 && err.message === ORDER_NAME_TAKEN) setTakenAtSubmit(trimmed);
      else setFailure(err);
      setBusy(false);
    }
  };

  let hint: string | null = null;
  if (trimmed !== '' && answer === null && !taken) hint = online ? 'Checking the name…' : 'You are offline. A new order needs a connection to the lab.';

  return (
    <section className="new-order">
      <form className="auth-card new-order-card" onSubmit={(e) => void onSubmit(e)}>
        <h1>NEW LAB ORDER</h1>
        <label>
          Order Name
          <input
            name="order_name"
            autoComplete="off"
            required
            value={name}
            aria-invalid={taken}
            aria-describedby="order-name-note"
            onChange={(e) => {
              setName(e.target.value);
              setFailure(null);
            }}
          />
        </label>
        <div id="order-name-note">
          {taken ? (
            <p className="field-error" role="alert">
              {ORDER_NAME_TAKEN}
            </p>
          ) : hint ? (
            <p className="muted" role="status">
              {hint}
            </p>
          ) : null}
        </div>
        {failure ? <ErrorLines lines={errorLines(failure)} /> : null}
        <button type="submit" className="button primary" disabled={!ready || busy}>
          SAVE AND UPLOAD
        </button>
      </form>
    </section>
  );
}
