import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { memo, useLayoutEffect, useRef, useState } from 'react';
import type { PhotographerAttributes, PhotographerList } from '../../api/photographers.ts';
import { PhotographerRow, type Drafts } from './photographer-row.tsx';

const HEADERS = ['NAME', 'EMAIL', 'BUSINESS NAME', 'PASSWORD', 'PASSWORD CONFIRMATION', 'APPROVED', 'CREDIT'];
// A row's height before it is measured: the name cell's link, counts and LOG IN AS stacked (the
// phone layout's card is taller; the first measurement corrects either).
const ROW_PX = 140;
// Rows kept in the page beyond the window, so a fast scroll or fling shows no blank.
const OVERSCAN_ROWS = 8;

/** A row's height with its margin: on phones each row is a card with a gap below it (photographers.css). */
function rowHeight(el: Element): number {
  return el.getBoundingClientRect().height + (parseFloat(getComputedStyle(el).marginBottom) || 0);
}

/**
 * The photographers, windowed: only the rows in and near the window are in the page (a lab of
 * 5,000 photographers scrolls through hundreds of rows of forms, and a table lays out every row it
 * holds). Spacer rows above and below keep the scroll height; columns have fixed widths
 * (photographers.css), so they do not move as rows come and go. Memoised, so a keystroke in the
 * search box does not re-render it.
 */
export const PhotographerTable = memo(function PhotographerTable({ rows, onSaved }: { rows: PhotographerList['data']; onSaved: (p: PhotographerAttributes) => void }) {
  const table = useRef<HTMLTableElement>(null);
  const [top, setTop] = useState(0);
  // Unsaved input of rows scrolled out of the window (see useDraft); lives as long as the list.
  const [drafts] = useState<Drafts>(() => new Map());

  useLayoutEffect(() => {
    const el = table.current;
    if (!el) return undefined;
    const observer = new ResizeObserver(() => setTop(el.getBoundingClientRect().top + window.scrollY));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // The virtualiser's functions are used only here, in this render, never handed to a memoised child
  // except measureElement, which is stable for the virtualiser's life.
  // oxlint-disable-next-line react/incompatible-library
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => ROW_PX,
    overscan: OVERSCAN_ROWS,
    scrollMargin: top,
    measureElement: rowHeight,
    getItemKey: (i) => rows[i]?.attributes.guid ?? i,
    // Rows come and go in React's next render, not synchronously inside each scroll event: a
    // fast wheel then costs one render per frame, not one per event.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const before = (items[0]?.start ?? top) - top;
  const after = virtualizer.getTotalSize() - ((items.at(-1)?.end ?? top) - top);

  return (
    <div className="table-box" hidden={rows.length === 0}>
      <table ref={table} className="photographer-table" aria-rowcount={rows.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
            {HEADERS.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {before > 0 ? <Spacer height={before} /> : null}
          {items.map((item) => {
            const d = rows[item.index];
            return d ? <PhotographerRow key={item.key} photographer={d.attributes} onSaved={onSaved} drafts={drafts} index={item.index} measure={virtualizer.measureElement} /> : null;
          })}
          {after > 0 ? <Spacer height={after} /> : null}
        </tbody>
      </table>
    </div>
  );
});

/** Room for the rows not in the page; hidden from assistive technology, which counts aria-rowcount. */
function Spacer({ height }: { height: number }) {
  return (
    <tr className="spacer-row" aria-hidden="true" style={{ height }}>
      <td colSpan={HEADERS.length} />
    </tr>
  );
}
