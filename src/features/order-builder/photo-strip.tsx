import { memo } from 'react';
import { truncateFileName } from '../../client-rules/photo-order.ts';
import type { PhotoEntry } from '../../offline/db.ts';
import { PhotoThumb } from './photo-thumb.tsx';
import { useListWindow } from './use-window.ts';

/** Width of one strip tile with its gap (order-builder.css .strip-tile). */
export const STRIP_TILE_PX = 120;

export type CartMark = 'added' | 'waiting';

const StripTile = memo(function StripTile(props: { photo: PhotoEntry; selected: boolean; mark: CartMark | undefined; onToggle: (guid: string) => void; left: number }) {
  const { photo, selected, mark } = props;
  const name = truncateFileName(photo.name);
  return (
    <li className={`strip-tile${mark ? ' in-cart' : ''}`} style={{ left: props.left }}>
      <button type="button" aria-pressed={selected} aria-label={photo.name} title={photo.name} onClick={() => props.onToggle(photo.id)}>
        <PhotoThumb photo={photo} />
        {mark ? (
          <span className="cart-mark">
            ADDED TO CART
            {mark === 'waiting' ? <span className="waiting-mark"> waiting to be sent</span> : null}
          </span>
        ) : null}
        <span className="strip-name" aria-hidden="true">
          {name}
        </span>
      </button>
    </li>
  );
});

/** The bottom strip (docs/orders.md §2): SELECT ALL, RESET, a click toggles; photos in the cart dimmed. */
export function PhotoStrip(props: {
  photos: readonly PhotoEntry[];
  selected: ReadonlySet<string>;
  marks: ReadonlyMap<string, CartMark>;
  onToggle: (guid: string) => void;
  onSelectAll: () => void;
  onReset: () => void;
}) {
  const [ref, win] = useListWindow(props.photos.length, STRIP_TILE_PX, 'x');
  return (
    <section className="photo-strip" aria-label="Photos of this order">
      <div className="strip-actions">
        <button type="button" className="button" onClick={props.onSelectAll} disabled={!props.photos.length}>
          SELECT ALL
        </button>
        <button type="button" className="button" onClick={props.onReset} disabled={!props.selected.size}>
          RESET
        </button>
        <span className="strip-count">
          {props.selected.size} of {props.photos.length} selected
        </span>
      </div>
      <div className="strip-scroller" ref={ref} tabIndex={-1}>
        <ul className="strip-list" style={{ width: win.total }}>
          {props.photos.slice(win.start, win.end).map((photo, i) => (
            <StripTile
              key={photo.id}
              photo={photo}
              left={(win.start + i) * STRIP_TILE_PX}
              selected={props.selected.has(photo.id)}
              mark={props.marks.get(photo.id)}
              onToggle={props.onToggle}
            />
          ))}
        </ul>
      </div>
    </section>
  );
}
