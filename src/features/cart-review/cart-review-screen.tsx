import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from '../../ui/router.tsx';
import { errorText } from '../../api/errors.ts';
import { CLEAR_CART_CONFIRM, CROPPED_MAX_CHECKS, canEditCart, croppedRecheckIn } from '../../client-rules/cart-review.ts';
import { afterClearCart, reviewRedirect } from './review-redirects.ts';
import { ROUTES } from '../../app/routes.ts';
import { routePath } from '../../domain/paths.ts';
import { isOnline, useConnectivity } from '../../offline/connectivity.ts';
import { clearCart, deleteLineItem, dismissRefusal, refreshOrder, setLineItemQuantity, useLocalLineItems, useLocalOrder } from '../../offline/order-store.ts';
import { CheckoutBox } from './checkout-box.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { LineItemRow, type RowActions } from './line-item-row.tsx';
import { useRowsInSlices } from './use-rows-in-slices.ts';
import './cart-review.css';

type Fill = { state: 'filling' } | { state: 'done' } | { state: 'failed'; message: string };
/** A fill's outcome, for the request it answers (a new order or a reconnection starts a new one). */
type FillResult = { request: string; fill: Fill };

// An IndexedDB read takes milliseconds even on a slow phone; a quarter second covers it with room.
const REDIRECT_SETTLE_MS = 250;

const logged = (what: string) => (err: unknown) => console.error(what, err);

/**
 * /lab-orders/:id/review (docs/orders.md §2 Cart review): the line items of the device's copy of the
 * order, the checkout box, CHECKOUT, ORDER MORE and CLEAR CART. Changes show at once and reach
 * the lab through the order store's outbox; only checkout needs a connection.
 */
export function CartReviewScreen() {
  const { id: orderGuid = '' } = useParams();
  const navigate = useNavigate();
  const online = useConnectivity(isOnline);
  const order = useLocalOrder(orderGuid);
  const items = useLocalLineItems(orderGuid);
  const rowsShown = useRowsInSlices(items?.length ?? 0);
  const request = `${orderGuid}|${String(online)}`;
  const [result, setResult] = useState<FillResult | null>(null);
  const fill: Fill = result?.request === request ? result.fill : { state: 'filling' };
  const [checks, setChecks] = useState(0);
  const [confirming, setConfirming] = useState(false);
  const [clearing, setClearing] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  // Set before the cart empties, so the empty cart goes to the builder as 'cleared', not 'no line items'.
  const leaving = useRef(false);

  // The lab's copy replaces the device's whenever it can be had: on opening and on reconnecting.
  useEffect(() => {
    let live = true;
    const answered = (f: Fill) => live && setResult({ request, fill: f });
    refreshOrder(orderGuid).then(
      () => answered({ state: 'done' }),
      (err: unknown) => answered({ state: 'failed', message: errorText(err) }),
    );
    return () => {
      live = false;
    };
  }, [orderGuid, request]);

  // The redirects of docs/orders.md §2, decided once the lab was asked (or could not be). The live
  // queries see the fill's write a moment after refreshOrder resolves: the decision waits that
  // moment, and a newer reading of the order or its lines cancels it and decides afresh.
  useEffect(() => {
    if (leaving.current || fill.state === 'filling' || !order || !items) return;
    const to = reviewRedirect(order, items.length);
    if (!to) return;
    const timer = setTimeout(() => void navigate(to, { replace: true }), REDIRECT_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [fill.state, order, items, navigate]);

  // The lab makes each cropped image in a job: look again after 4 s, at most twice (docs/orders.md §4, §9).
  const recheckIn = items && fill.state === 'done' && online ? croppedRecheckIn(items, checks) : null;
  useEffect(() => {
    if (recheckIn === null) return;
    const timer = setTimeout(() => {
      refreshOrder(orderGuid)
        .catch(logged('cropped-image check failed'))
        // This check's number, not a functional update: a new check count starts the next wait.
        .finally(() => setChecks(checks + 1));
    }, recheckIn);
    return () => clearTimeout(timer);
  }, [recheckIn, checks, orderGuid]);

  const actions = useMemo<RowActions>(() => {
    const report = (what: string) => (err: unknown) => setActionError(`${what}: ${errorText(err)}`);
    return {
      setQuantity: (item, quantity) => void setLineItemQuantity(orderGuid, item.guid, quantity).catch(report('The quantity could not be changed')),
      remove: (item) => void deleteLineItem(orderGuid, item.guid).catch(report(`${item.imageName} could not be deleted`)),
      dismissRefusal: (item) => void dismissRefusal(item.guid).catch(report('The notice could not be dismissed')),
    };
  }, [orderGuid]);

  const confirmClear = async () => {
    leaving.current = true;
    setClearing(true);
    try {
      await clearCart(orderGuid);
      void navigate(afterClearCart(orderGuid));
    } catch (err) {
      leaving.current = false;
      setClearing(false);
      setConfirming(false);
      setActionError(`The cart could not be cleared: ${errorText(err)}`);
    }
  };

  if (order === undefined || items === undefined || (order === null && fill.state === 'filling')) {
    return <Page name={null}>{<p role="status">loading...</p>}</Page>;
  }
  if (order === null) {
    return (
      <Page name={null}>
        <p role="alert" className="load-error">
          {fill.state === 'failed'
            ? `ERROR LOADING: ${fill.message}`
            : 'This order is not on this device yet, and the lab cannot be reached. Connect once to open it here; after that it works offline.'}
        </p>
      </Page>
    );
  }

  const editable = canEditCart(order.status);
  return (
    <Page name={order.name}>
      {fill.state === 'failed' ? (
        <p className="offline-note" role="status">
          Showing the cart as this device has it: the lab could not be asked ({fill.message}).
        </p>
      ) : null}
      {actionError ? (
        <p className="form-error" role="alert">
          {actionError}
        </p>
      ) : null}
      <div className="review-layout">
        <ul className="review-items" aria-label="Line items">
          {items.slice(0, rowsShown).map((item) => (
            <LineItemRow key={item.guid} item={item} editable={editable} checking={online && checks < CROPPED_MAX_CHECKS} actions={actions} />
          ))}
        </ul>
        <CheckoutBox
          order={order}
          items={items}
          online={online}
          editable={editable}
          onCheckout={() => void navigate(routePath(ROUTES.checkoutDetails, { id: orderGuid }))}
          onOrderMore={() => void navigate(routePath(ROUTES.orderBuilder, { id: orderGuid }))}
          onClearCart={() => setConfirming(true)}
        />
      </div>
      {confirming ? (
        <ConfirmDialog
          title="CLEAR CART"
          message={CLEAR_CART_CONFIRM}
          cancel="CANCEL"
          confirm="YES, CLEAR CART"
          busy={clearing ? { label: 'CLEARING...' } : null}
          destructive
          onConfirm={() => void confirmClear()}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </Page>
  );
}

function Page({ name, children }: { name: string | null; children: React.ReactNode }) {
  return (
    <section className="review-page">
      <header className="review-header">
        <p className="muted">{name || 'Lab order'}</p>
        <h1>CART</h1>
      </header>
      {children}
    </section>
  );
}
