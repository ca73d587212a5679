import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { Link, useLocation, useParams } from '../../ui/router.tsx';
import { useSession } from '../../api/session.ts';
import { CROP_CHECK, addToCartLabel, selectionCents, showsAddToCart } from '../../domain/add-to-cart.ts';
import { builderReducer } from './builder-reducer.ts';
import { INITIAL_SELECTIONS, isFlipped, photoCrop, type Selections } from '../../domain/builder-selections.ts';
import { cropOptions } from '../../domain/crop.ts';
import { selectionsFromLineItem } from '../../client-rules/line-items.ts';
import { ALL_PHOTOS, noteKey, shownNote } from '../../domain/notes.ts';
import { ROUTES } from '../../app/routes.ts';
import { routePath } from '../../domain/paths.ts';
import { cropResolution } from '../../domain/print-resolution.ts';
import type { PhotoEntry } from '../../offline/db.ts';
import { useLocalLineItems, useLocalOrder } from '../../offline/order-store.ts';
import { keepPaperProfile } from '../../offline/paper-profile-copy.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { BuilderSidebar } from './builder-sidebar.tsx';
import { CartSidebar } from './cart-sidebar.tsx';
import { CropStage, type PhotoCropInfo } from './crop-area.tsx';
import { PhotoStrip, type CartMark } from './photo-strip.tsx';
import { useAddToCart } from './use-add-to-cart.ts';
import { useFinishingGroups, useKeepFinishingForOffline, useOrderPhotos, usePapers } from './use-builder-data.ts';
import './order-builder.css';

export const RELOAD_ORDER_PAGE = 'RELOAD ORDER PAGE';
export const NOT_OPEN = 'This order is no longer open, so its cart cannot change.';
export const STILL_PROCESSING = 'Some photos are still being processed. If they look blank, reload the page in a few seconds.';
const NO_SUCH_LINE_ITEM = 'This line item is not in the cart of this order.';

function ErrorView({ title, message }: { title: string; message: string }) {
  return (
    <div className="order-builder">
      <h1>{title}</h1>
      <p role="alert">ERROR LOADING: {message}</p>
      <button type="button" className="button primary" onClick={() => window.location.reload()}>
        {RELOAD_ORDER_PAGE}
      </button>
    </div>
  );
}

/** The builder (docs/orders.md §2 Order builder) and, with a line item, its edit. */
function Builder({ lineItemGuid }: { lineItemGuid: string | null }) {
  const orderGuid = useParams().id ?? '';
  const title = lineItemGuid ? 'EDIT LINE ITEM' : 'ORDER BUILDER';
  const owner = useSession((x) => x.actingAs?.email ?? x.session?.email ?? '');
  const papers = usePapers();
  const photos = useOrderPhotos(owner, orderGuid);
  const order = useLocalOrder(orderGuid);
  const lineItems = useLocalLineItems(orderGuid);
  const [s, dispatch] = useReducer(builderReducer, INITIAL_SELECTIONS);

  // The review's notices ('You have no line items!', cart cleared) are toasted by the signed-in
  // layout (src/app/route-notice.ts); the builder reads the order afresh on every open anyway.

  // Line-item edit: the selections come as navigation state (docs/orders.md §2), else from the item.
  const navState = useLocation().state as { selections?: Selections } | null;
  const item = lineItemGuid ? lineItems?.find((l) => l.guid === lineItemGuid) : undefined;
  const loaded = useRef(false);
  useEffect(() => {
    if (loaded.current || !lineItemGuid || !item) return;
    loaded.current = true;
    dispatch({ type: 'load', selections: navState?.selections ?? selectionsFromLineItem(item) });
  }, [item, lineItemGuid, navState]);

  const paperList = papers.state === 'ready' ? papers.data : [];
  const paper = paperList.find((p) => p.guid === s.paperGuid) ?? null;
  const size = paper?.print_size_pricings.find((z) => z.guid === s.printSizeGuid) ?? null;
  const groups = useFinishingGroups(s.printSizeGuid);
  useKeepFinishingForOffline(paperList, paper);
  // The chosen paper's profile goes on the device now, so its proof works offline later.
  useEffect(() => keepPaperProfile(paper?.icc_profile ?? null), [paper]);

  const infoOf = useCallback(
    (p: PhotoEntry): PhotoCropInfo | null => {
      if (!paper || !size) return null;
      const croppable = { guid: p.id, width: p.width ?? null, height: p.height ?? null };
      const flipped = isFlipped(s, croppable, size);
      const crop = photoCrop(s, croppable, paper.name, size);
      const pixels = p.width && p.height ? { width: p.width, height: p.height } : null;
      return { crop, options: cropOptions(paper.name, size, flipped), resolution: cropResolution(pixels, crop, paper.name, size.name) };
    },
    [s, paper, size],
  );

  const byId = useMemo(() => new Map((photos ?? []).map((p) => [p.id, p])), [photos]);
  const selected = useMemo(() => s.photos.flatMap((g) => byId.get(g) ?? []), [s.photos, byId]);
  const selectedSet = useMemo(() => new Set(s.photos), [s.photos]);
  const marks = useMemo(() => {
    const m = new Map<string, CartMark>();
    for (const l of lineItems ?? []) if (l.pending || !m.has(l.photoGuid)) m.set(l.photoGuid, l.pending ? 'waiting' : 'added');
    return m;
  }, [lineItems]);

  const cart = useAddToCart({
    orderGuid,
    s,
    paper,
    groups,
    lineItemCount: lineItems?.length ?? 0,
    editing: lineItemGuid,
    photos: photos ?? [],
    infoOf,
    onAdded: () => dispatch({ type: 'added' }),
  });
  const onToggle = useCallback((guid: string) => dispatch({ type: 'togglePhoto', photoGuid: guid }), []);

  if (papers.state === 'failed') return <ErrorView title={title} message={papers.message} />;
  if (lineItemGuid && lineItems && !item) return <ErrorView title={title} message={NO_SUCH_LINE_ITEM} />;
  if (papers.state === 'loading' || !photos || !lineItems) {
    return (
      <div className="order-builder">
        <h1>{title}</h1>
        <p role="status">loading...</p>
      </div>
    );
  }

  const key = noteKey(s.photos);
  const subtotal = lineItems.reduce((sum, l) => sum + l.totalPriceCents, 0);
  const notOpen = order && order.status !== 'open' ? NOT_OPEN : null;
  return (
    <div className="order-builder">
      <header className="builder-header">
        <h1>{title}</h1>
        {order ? <p className="order-name">{order.name}</p> : null}
        <Link className="button" to={routePath(ROUTES.uploadProgress, { id: orderGuid })}>
          UPLOAD MORE
        </Link>
      </header>
      {item?.refusal ? (
        <p className="builder-refusal" role="alert">
          The lab refused this line item: {item.refusal}
        </p>
      ) : item?.pending ? (
        <p className="waiting-note">This line item is waiting to be sent to the lab.</p>
      ) : null}
      <div className="builder-columns">
        <BuilderSidebar s={s} papers={paperList} groups={groups} dispatch={dispatch} />
        <CropStage
          selected={selected}
          paper={paper}
          infoOf={infoOf}
          onCrop={(photoGuid, crop) => dispatch({ type: 'crop', photoGuid, crop })}
          onFlip={(photoGuid, flipped) => dispatch({ type: 'flip', photoGuid, flipped })}
        />
        <CartSidebar
          orderGuid={orderGuid}
          note={shownNote(s.notes, s.photos)}
          noteFor={key === ALL_PHOTOS ? 'all selected photos' : (byId.get(key)?.name ?? 'this photo')}
          onNote={(text) => dispatch({ type: 'notes', text })}
          buttonLabel={showsAddToCart(s) ? addToCartLabel(lineItemGuid !== null) : null}
          onAdd={cart.press}
          adding={cart.adding}
          refusal={notOpen}
          cartCount={lineItems.length}
          waitingCount={lineItems.filter((l) => l.pending).length}
          subtotalCents={subtotal}
          selectionCents={selectionCents(s, size, groups)}
        />
      </div>
      {lineItemGuid ? null : (
        <PhotoStrip
          photos={photos}
          selected={selectedSet}
          marks={marks}
          onToggle={onToggle}
          onSelectAll={() => {
            dispatch({ type: 'selectAllPhotos', photoGuids: photos.map((p) => p.id) });
            // docs/orders.md §8: the select-all tip while the lab is still making some thumbnails.
            if (photos.some((p) => !p.thumbnail && !p.smallestPhotoUrl)) toast.info(STILL_PROCESSING);
          }}
          onReset={() => dispatch({ type: 'resetPhotos' })}
        />
      )}
      {cart.question?.kind === 'crop' ? (
        <ConfirmDialog
          title={CROP_CHECK.title}
          message={CROP_CHECK.message}
          cancel={CROP_CHECK.checkCrop}
          confirm={CROP_CHECK.looksGood}
          onCancel={cart.dismiss}
          onConfirm={() => cart.question && cart.answer(cart.question)}
        />
      ) : cart.question?.kind === 'resolution' ? (
        <ConfirmDialog
          title="Low resolution"
          message={cart.question.message}
          cancel="CANCEL"
          confirm="ADD ANYWAY"
          onCancel={cart.dismiss}
          onConfirm={() => cart.question && cart.answer(cart.question)}
        />
      ) : null}
    </div>
  );
}

export function OrderBuilderScreen() {
  return <Builder lineItemGuid={null} />;
}

export function LineItemEditScreen() {
  const lineItemGuid = useParams().line_item_id ?? '';
  return <Builder key={lineItemGuid} lineItemGuid={lineItemGuid} />;
}
