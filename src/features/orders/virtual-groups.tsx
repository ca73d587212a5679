import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Group, RenderCard } from './order-group.ts';

// The grid's geometry (orders-list.css .order-grid): cards at least this wide, this far apart.
const CARD_MIN_PX = 260;
const GAP_PX = 16;
// First guesses of a row's height before it is measured: a heading, a row of cards.
const HEADING_PX = 56;
const CARD_ROW_PX = 200;
// Rows kept in the page beyond the window, so a fast scroll or fling shows no blank.
const OVERSCAN_ROWS = 6;

type Row = { kind: 'heading'; key: string; heading: string } | { kind: 'cards'; key: string; group: Group; from: number; to: number };

/** Headings and rows of as many cards as fit across, one flat list the virtualiser can window. */
function rowsOf(groups: Group[], columns: number): Row[] {
  const rows: Row[] = [];
  for (const group of groups) {
    rows.push({ kind: 'heading', key: `h|${group.heading}`, heading: group.heading });
    for (let i = 0; i < group.orders.length; i += columns) {
      rows.push({ kind: 'cards', key: `c|${group.orders[i]?.guid ?? i}`, group, from: i, to: Math.min(i + columns, group.orders.length) });
    }
  }
  return rows;
}

/**
 * A long list of orders: only the rows in and near the window are in the page (the window
 * scrolls, as with the short list), each measured once drawn.
 */
export function VirtualGroups({ groups, renderCard }: { groups: Group[]; renderCard: RenderCard }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [top, setTop] = useState(0);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => {
      setWidth(el.clientWidth);
      setTop(el.getBoundingClientRect().top + window.scrollY);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const columns = Math.max(1, Math.floor((width + GAP_PX) / (CARD_MIN_PX + GAP_PX)));
  const rows = useMemo(() => rowsOf(groups, columns), [groups, columns]);
  // The same functions while the rows are the same: the virtualiser works out every row's place
  // again (all 10,000 orders' rows) whenever its key function changes, so not on each scroll.
  const estimateSize = useCallback((i: number) => (rows[i]?.kind === 'heading' ? HEADING_PX : CARD_ROW_PX), [rows]);
  const getItemKey = useCallback((i: number) => rows[i]?.key ?? i, [rows]);
  // The virtualiser's functions are used only here, in this render, never handed to a memoised child.
  // oxlint-disable-next-line react/incompatible-library
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize,
    overscan: OVERSCAN_ROWS,
    scrollMargin: top,
    getItemKey,
    // Rows come and go in React's next render, not synchronously inside each scroll event (as the
    // photographers' table): a fast wheel then costs one render per frame, not one per event.
    useFlushSync: false,
  });

  return (
    <div ref={box} className="virtual-orders" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
      {virtualizer.getVirtualItems().map((item) => {
        const row = rows[item.index];
        if (!row) return null;
        return (
          <div
            key={item.key}
            ref={virtualizer.measureElement}
            data-index={item.index}
            className="virtual-row"
            style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)` }}
          >
            {row.kind === 'heading' ? (
              <h2 className="date-heading">{row.heading}</h2>
            ) : (
              <ul className="order-grid" aria-label={row.group.heading} style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
                {row.group.orders.slice(row.from, row.to).map((order) => (
                  <li key={order.guid}>{renderCard(order)}</li>
                ))}
              </ul>
            )}
          </div>
        );
      })}
    </div>
  );
}
