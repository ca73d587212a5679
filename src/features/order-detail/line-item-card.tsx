import { Link } from '../../ui/router.tsx';
import { borderLabel } from '../../domain/catalogue.ts';
import type { ServerLineItem } from '../../contract/line-items.ts';
import { toCents, formatMoney } from '../../domain/money.ts';
import { lineFinishingText } from '../../client-rules/order-detail.ts';
import { truncateFileName } from '../../client-rules/photo-order.ts';
import type { ModalPhoto } from './photo-modal.tsx';

const dollars = (amount: number) => formatMoney(toCents(amount));

/**
 * One line item: the photo (which opens large), paper, size, border, finishing, quantity, price;
 * and, while the order is open, EDIT to its line-item edit (`editTo`).
 */
export function LineItemCard({ item, showInternal, editTo, onPhoto }: { item: ServerLineItem; showInternal: boolean; editTo: string | null; onPhoto: (photo: ModalPhoto) => void }) {
  const shown = item.photograph_cropped_url ?? item.photograph_url;
  return (
    <li className="detail-item" aria-label={item.photo_file_name}>
      <button
        type="button"
        className="detail-thumb"
        aria-label={`View photo ${item.photo_file_name}`}
        onClick={() => onPhoto({ name: item.photo_file_name, url: shown, originalUrl: item.photograph_full_url })}
      >
        <img src={shown} alt="" loading="lazy" />
      </button>
      <div className="detail-item-body">
        <h3 title={item.photo_file_name}>{truncateFileName(item.photo_file_name)}</h3>
        <dl className="detail-facts">
          <dt>PAPER</dt>
          <dd>{item.print_size_attributes.paper}</dd>
          <dt>PRINT SIZE</dt>
          <dd>{item.print_size_attributes.print_size}</dd>
          <dt>BORDER</dt>
          <dd>{borderLabel(item.print_border)}</dd>
          <dt>FINISHING</dt>
          <dd>{lineFinishingText(item.finishing_service)}</dd>
          <dt>QUANTITY</dt>
          <dd>{item.quantity}</dd>
          <dt>PRICE</dt>
          <dd>{dollars(item.subtotal)}</dd>
          {item.notes ? (
            <>
              <dt>NOTES</dt>
              <dd className="pre-wrap">{item.notes}</dd>
            </>
          ) : null}
          {showInternal && item.internal_notes ? (
            <>
              <dt>LAB NOTES</dt>
              <dd className="pre-wrap">{item.internal_notes}</dd>
            </>
          ) : null}
        </dl>
        {editTo ? (
          <Link className="button detail-item-edit" to={editTo} aria-label={`Edit ${item.photo_file_name}`}>
            EDIT
          </Link>
        ) : null}
      </div>
    </li>
  );
}
