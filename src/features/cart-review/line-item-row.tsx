import { memo } from 'react';
import { Link } from '../../ui/router.tsx';
import { PREVIEW_ITEM_PARAM } from '../../client-rules/cart-preview.ts';
import { CHECKING_CROPPED_IMAGE, lacksCroppedImage } from '../../client-rules/cart-review.ts';
import { sameValue } from '../../domain/collections.ts';
import { formatMoney } from '../../domain/money.ts';
import { ROUTES } from '../../app/routes.ts';
import { routePath } from '../../domain/paths.ts';
import { truncateFileName } from '../../client-rules/photo-order.ts';
import { linePriceCents } from '../../domain/pricing.ts';
import { steppedQuantity } from '../../domain/quantity.ts';
import { finishingText } from '../../client-rules/line-items.ts';
import { goneFromLab, type LocalLineItem } from '../../offline/order-store.ts';

export interface RowActions {
  setQuantity(item: LocalLineItem, quantity: number): void;
  remove(item: LocalLineItem): void;
  dismissRefusal(item: LocalLineItem): void;
}

/** A line item as shown: every field alike (each device read makes new objects for the same rows). */
const sameItem = (a: LocalLineItem, b: LocalLineItem) => sameValue(a, b);

/**
 * One line item of the cart review. Memoised on the item's content: while the outbox sends a
 * 1,000-item cart (34 batches), each confirmed batch re-reads the cart, and only the 30 rows that
 * changed may re-render, not all 1,000 (that held the main thread for each batch:
 * docs/performance-notes.md §6).
 */
export const LineItemRow = memo(LineItemRowView, (a, b) => a.editable === b.editable && a.checking === b.checking && a.actions === b.actions && sameItem(a.item, b.item));

/** The print, its figures, and (open orders) quantity arrows, EDIT (the line-item edit) and delete. */
function LineItemRowView({ item, editable, checking, actions }: { item: LocalLineItem; editable: boolean; checking: boolean; actions: RowActions }) {
  const name = truncateFileName(item.imageName);
  const each = item.printPriceCents + item.finishingPriceCents;
  const step = (delta: number) => {
    const next = steppedQuantity(item.quantity, delta);
    // A decrease to 0 (or a step past the maximum) is ignored (docs/orders.md §5).
    if (next !== item.quantity) actions.setQuantity(item, next);
  };
  return (
    <li className={`review-item${item.pending ? ' is-pending' : ''}${item.refusal ? ' is-refused' : ''}`} aria-label={item.imageName}>
      <img className="review-thumb" src={item.photoUrl} alt={`${item.imageName}, cropped for print`} loading="lazy" />
      <div className="review-item-body">
        <h2 className="review-item-name" title={item.imageName}>
          {name}
        </h2>
        {checking && lacksCroppedImage(item.photoUrl) ? <p className="muted review-checking">{CHECKING_CROPPED_IMAGE}</p> : null}
        <dl className="review-facts">
          <dt>PAPER</dt>
          <dd>{item.paper}</dd>
          <dt>PRINT SIZE</dt>
          <dd>{item.printSize}</dd>
          <dt>BORDER</dt>
          <dd>{item.printBorder}</dd>
          <dt>FINISHING</dt>
          <dd>{finishingText(item)}</dd>
          {item.notes ? (
            <>
              <dt>NOTES</dt>
              <dd className="review-notes">{item.notes}</dd>
            </>
          ) : null}
          <dt>PRICE</dt>
          <dd>
            {formatMoney(linePriceCents({ printCents: item.printPriceCents, finishingCents: item.finishingPriceCents, quantity: item.quantity }))}
            {item.quantity > 1 ? <span className="muted"> ({formatMoney(each)} each)</span> : null}
          </dd>
        </dl>
        {item.pending ? (
          <p className="review-pending" role="status">
            Waiting to be sent: kept on this device until the lab has it.
          </p>
        ) : null}
        {item.refusal ? (
          <div className="review-refusal" role="alert">
            {/* The refusal's own words say what to do about it (refusalText, src/offline/outbox-drain.ts). */}
            <p>
              <strong>The lab refused this change:</strong> {item.refusal}
            </p>
            <div className="review-refusal-actions">
              {editable && !goneFromLab(item) ? (
                <Link className="button" to={routePath(ROUTES.lineItemEdit, { id: item.labOrderGuid, line_item_id: item.guid })}>
                  EDIT LINE ITEM
                </Link>
              ) : null}
              <button type="button" className="button" onClick={() => actions.dismissRefusal(item)}>
                DISMISS
              </button>
            </div>
          </div>
        ) : null}
      </div>
      <div className="review-item-controls">
        {editable ? (
          <div className="review-qty" role="group" aria-label={`Quantity of ${item.imageName}`}>
            <button type="button" className="qty-arrow" aria-label={`Decrease quantity of ${item.imageName}`} onClick={() => step(-1)} disabled={item.quantity <= 1}>
              ▼
            </button>
            <output className="qty-value" aria-label={`Quantity of ${item.imageName}`}>
              {item.quantity}
            </output>
            <button type="button" className="qty-arrow" aria-label={`Increase quantity of ${item.imageName}`} onClick={() => step(1)}>
              ▲
            </button>
          </div>
        ) : (
          <p className="qty-readonly">
            QUANTITY <span className="qty-value">{item.quantity}</span>
          </p>
        )}
        {editable && !goneFromLab(item) ? (
          <Link className="button" to={routePath(ROUTES.lineItemEdit, { id: item.labOrderGuid, line_item_id: item.guid })} aria-label={`Edit ${item.imageName}`}>
            EDIT
          </Link>
        ) : null}
        <Link className="button" to={`${routePath(ROUTES.cartPreview, { id: item.labOrderGuid })}?${PREVIEW_ITEM_PARAM}=${encodeURIComponent(item.guid)}`} aria-label={`Preview ${item.imageName}`}>
          PREVIEW
        </Link>
        {editable ? (
          <button type="button" className="button review-delete" aria-label={`Delete ${item.imageName}`} onClick={() => actions.remove(item)}>
            <TrashIcon /> DELETE
          </button>
        ) : null}
      </div>
    </li>
  );
}

/** A trash can drawn inline: an emoji would depend on the device having an emoji font. */
function TrashIcon() {
  return (
    <svg className="trash-icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path d="M9 3h6l1 2h4v2H4V5h4l1-2Zm-3 6h12l-1 12H7L6 9Zm4 2v8h1.5v-8H10Zm3.5 0v8H15v-8h-1.5Z" fill="currentColor" />
    </svg>
  );
}
