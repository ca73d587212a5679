import { useState, type ReactNode } from 'react';
import { Link, useParams } from '../../ui/router.tsx';
import { canContinueOrder } from '../../client-rules/order-detail.ts';
import { ROUTES } from '../../app/routes.ts';
import { routePath } from '../../domain/paths.ts';
import { knownAdmin, useSession } from '../../api/session.ts';
import { AlbumCard } from './album-card.tsx';
import { LineItemCard } from './line-item-card.tsx';
import { OwnerButtons, OwnerNotes } from './owner-actions.tsx';
import { OrderSummary } from './order-summary.tsx';
import { ShipDatesCard } from './ship-dates-card.tsx';
import { PhotoModal, type ModalPhoto } from './photo-modal.tsx';
import { useOrderDetail } from './use-order-detail.ts';
import { LoadStatus } from '../../ui/load-status.tsx';
import { moduleLoader, useModule } from '../../ui/use-module.ts';
import './order-detail.css';

// Only admins see the panel: photographers never download its code. A lab admin's device asks for
// it with the screen's own code, so it is usually in before the order is.
const adminPanel = moduleLoader(() => import('./admin-panel.tsx'));
if (knownAdmin()) adminPanel.load().catch(() => undefined);

function Page({ name, children }: { name: string | null; children: ReactNode }) {
  return (
    <section className="order-detail">
      <header className="detail-header">
        {name === null ? null : <p className="muted detail-kicker">ORDER</p>}
        <h1>{name ?? 'ORDER'}</h1>
      </header>
      {children}
    </section>
  );
}

/** Order detail (docs/orders.md §2): summary, line items with a photo modal, CONTINUE ORDER while open; the admin panel for admins. */
export function OrderDetailScreen() {
  const { id = '' } = useParams();
  const { load, reload } = useOrderDetail(id);
  const [photo, setPhoto] = useState<ModalPhoto | null>(null);
  const myGuid = useSession((s) => s.session?.guid ?? null);
  const panel = useModule(adminPanel, load.state === 'loaded' && load.detail.isAdmin);

  if (load.state !== 'loaded')
    return (
      <Page name={null}>
        <LoadStatus load={load} />
        {load.state === 'error' ? <Link to={ROUTES.labOrders}>BACK TO ORDERS</Link> : null}
      </Page>
    );

  const { order, lineItems, isAdmin } = load.detail;
  // The photographer's own actions: theirs (an admin acting as them holds their session), never an admin's on another's order.
  const mine = !isAdmin || order.photographer_id === myGuid;
  return (
    <Page name={order.order_name}>
      <div className="detail-actions">
        <Link to={ROUTES.labOrders} className="button">
          ALL ORDERS
        </Link>
        {canContinueOrder(order.status) ? (
          <Link to={routePath(ROUTES.orderBuilder, { id: order.guid })} className="button primary">
            CONTINUE ORDER
          </Link>
        ) : null}
        {mine ? <OwnerButtons order={order} onChanged={reload} /> : null}
        {order.urgent ? <span className="urgent-badge">URGENT</span> : null}
      </div>
      <div className={isAdmin ? 'detail-layout with-panel' : 'detail-layout'}>
        <div className="detail-main">
          {mine ? <OwnerNotes order={order} onChanged={reload} /> : null}
          <ShipDatesCard order={order} />
          <OrderSummary order={order} />
          <section aria-labelledby="items-heading">
            <h2 id="items-heading">LINE ITEMS ({lineItems.length})</h2>
            {lineItems.length === 0 ? (
              <p className="muted">This order has no line items.</p>
            ) : (
              <ul className="detail-items" aria-label="Line items">
                {lineItems.map((item) => (
                  <LineItemCard
                    key={item.guid}
                    item={item}
                    showInternal={isAdmin}
                    editTo={canContinueOrder(order.status) ? routePath(ROUTES.lineItemEdit, { id: order.guid, line_item_id: item.guid }) : null}
                    onPhoto={setPhoto}
                  />
                ))}
              </ul>
            )}
          </section>
          {order.album_line_items?.length ? (
            <section aria-labelledby="albums-heading">
              <h2 id="albums-heading">ALBUMS ({order.album_line_items.length})</h2>
              <ul className="detail-items" aria-label="Albums">
                {order.album_line_items.map((album) => (
                  <AlbumCard key={album.guid} album={album} onPhoto={setPhoto} />
                ))}
              </ul>
            </section>
          ) : null}
        </div>
        {isAdmin ? (
          panel ? (
            <panel.AdminPanel order={order} onChanged={reload} />
          ) : (
            <p className="muted">loading the admin tools…</p>
          )
        ) : null}
      </div>
      {photo ? <PhotoModal photo={photo} onClose={() => setPhoto(null)} /> : null}
    </Page>
  );
}
