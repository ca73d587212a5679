import { useCallback, useEffect, useState } from 'react';

/**
 * A small windowing hook: which items of a long list of fixed-size items are inside a scrolling
 * element (plus a margin), so a 1,000-photo order mounts a screenful of tiles, not 1,000.
 * @tanstack/react-virtual, which windows the orders and photographers lists, is not needed here:
 * the builder's items have one fixed size, so these few lines do. `content-visibility: auto` alone would still create
 * 1,000 React elements (and object URLs) on every selection change, which is what blocks input,
 * so the list is windowed in React. Items have one fixed size on the scrolling axis: the strip's
 * tiles and the grid's rows are laid out that way in order-builder.css.
 */

/** Items mounted beyond each edge of the visible part: scrolling never shows an empty tile first. */
const OVERSCAN = 4;

export interface ListWindow {
  /** First and one-past-last index to render. */
  start: number;
  end: number;
  /** Pixels before the first rendered item (its offset) and of the whole list. */
  offset: number;
  total: number;
}

export function useListWindow(count: number, itemPx: number, axis: 'x' | 'y'): [(el: HTMLElement | null) => void, ListWindow] {
  const [el, setEl] = useState<HTMLElement | null>(null);
  const [view, setView] = useState({ scroll: 0, size: 0 });
  useEffect(() => {
    if (!el) return undefined;
    const measure = () => setView({ scroll: axis === 'x' ? el.scrollLeft : el.scrollTop, size: axis === 'x' ? el.clientWidth : el.clientHeight });
    measure();
    // Scroll events are batched to one update a frame, so a fast fling costs one render a frame.
    let frame = 0;
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(() => {
        frame = 0;
        measure();
      });
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    resize?.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      resize?.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [el, axis]);
  return [useCallback((node: HTMLElement | null) => setEl(node), []), listWindow(count, itemPx, view.scroll, view.size)];
}

/** Before the first measure (size 0) a laptop screen's worth is assumed, so the first paint is not empty. */
const UNMEASURED_PX = 1200;

/** The items to mount for a scroll position and visible size (pure: unit-tested). */
export function listWindow(count: number, itemPx: number, scroll: number, size: number): ListWindow {
  const first = Math.max(0, Math.floor(scroll / itemPx) - OVERSCAN);
  const visible = Math.ceil((size || UNMEASURED_PX) / itemPx) + 2 * OVERSCAN;
  const start = Math.min(first, count);
  const end = Math.min(count, start + visible);
  return { start, end, offset: start * itemPx, total: count * itemPx };
}
