import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from '../../ui/router.tsx';
import { PREVIEW_ITEM_PARAM } from '../../client-rules/cart-preview.ts';
import { ROUTES } from '../../app/routes.ts';
import { routePath } from '../../domain/paths.ts';
import { truncateFileName } from '../../client-rules/photo-order.ts';
import type { Paper } from '../../contract/catalogue.ts';
import { readPapers } from '../../offline/catalogue-copy.ts';
import { refreshOrder, useLocalLineItems, useLocalOrder } from '../../offline/order-store.ts';
import { PreviewCanvas } from './preview-canvas.tsx';
import './cart-preview.css';

/**
 * /cart-preview/:id (docs/orders.md §2 Cart preview): the chosen line item of order :id drawn with its
 * paper's effect, and a strip of the order's line items to choose from. It reads the device's
 * copy, so it works with no connection.
 */
export function CartPreviewScreen() {
  const { id: orderGuid = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const order = useLocalOrder(orderGuid);
  const items = useLocalLineItems(orderGuid);

  useEffect(() => {
    // The device's copy shows at once; the lab's answer (when it can be reached) replaces it.
    refreshOrder(orderGuid).catch((err: unknown) => console.error('could not refresh the order for its preview', err));
  }, [orderGuid]);

  // The papers' profiles for the soft proof, live or as kept on this device; none: no proof offered.
  const [papers, setPapers] = useState<readonly Paper[]>([]);
  useEffect(() => {
    readPapers().then(
      ({ data }) => setPapers(data.data),
      () => setPapers([]),
    );
  }, []);

  const chosenGuid = params.get(PREVIEW_ITEM_PARAM);
  const chosen = items?.find((i) => i.guid === chosenGuid) ?? items?.[0];
  const choose = (guid: string) => setParams({ [PREVIEW_ITEM_PARAM]: guid }, { replace: true });

  return (
    <section className="cart-preview-page">
      <header>
        <p className="muted">{order?.name || 'Lab order'}</p>
        <h1>CART PREVIEW</h1>
        <Link className="button" to={routePath(ROUTES.cartReview, { id: orderGuid })}>
          BACK TO CART
        </Link>
      </header>
      {items === undefined ? <p role="status">loading...</p> : null}
      {items?.length === 0 ? <p className="notice">There are no line items in this order on this device yet.</p> : null}
      {chosen ? <PreviewCanvas item={chosen} profile={papers.find((p) => p.name === chosen.paper)?.icc_profile ?? null} /> : null}
      {items && items.length > 0 ? (
        <nav aria-label="Line items">
          <ul className="preview-strip">
            {items.map((item) => (
              <li key={item.guid}>
                <button
                  type="button"
                  className="preview-thumb"
                  aria-pressed={item.guid === chosen?.guid}
                  aria-label={`${item.imageName}, ${item.paper} ${item.printSize}`}
                  onClick={() => choose(item.guid)}
                >
                  <img src={item.photoUrl} alt="" loading="lazy" />
                  <span>{truncateFileName(item.imageName)}</span>
                </button>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </section>
  );
}
