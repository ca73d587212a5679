import { memo, startTransition, useCallback, useDeferredValue, useEffect, useRef, useState } from 'react';
import { errorText, logErrorDetails } from '../../api/errors.ts';
import { getPhotographers, type PhotographerAttributes, type PhotographerList } from '../../api/photographers.ts';
import { nextTask } from '../../offline/next-task.ts';
import { photographerSearch } from './photographer-edits.ts';
import { useAfterPaint } from '../../ui/use-after-paint.ts';
import { PhotographerTable } from './photographer-table.tsx';
import { LoadStatus } from '../../ui/load-status.tsx';
import './photographers.css';

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'loaded'; list: PhotographerList; words: string };

// The next page starts loading this far before the end of the list comes into view (about five
// rows), so a steady scroll rarely waits for it.
const AHEAD_PX = 600;

/**
 * LOAD MORE, pressed by itself as it comes near the screen (a lab of 5,000 photographers scrolls
 * on through its pages), by hand with a keyboard, and by hand again after a failure, which it does
 * not retry on its own.
 */
function LoadMore({ busy, error, onLoad }: { busy: boolean; error: string | null; onLoad: () => void }) {
  const button = useRef<HTMLButtonElement>(null);
  const auto = !busy && !error;
  // A new observer per page (onLoad changes with the cursor): its first report is where the button
  // is now, after the page above it was drawn, so a page never chains the next unless in view.
  useEffect(() => {
    const target = button.current;
    if (!auto || !target || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onLoad(), { rootMargin: `0px 0px ${AHEAD_PX}px 0px` });
    observer.observe(target);
    return () => observer.disconnect();
  }, [auto, onLoad]);
  return (
    <>
      {error ? <p role="alert">Could not load more photographers: {error}</p> : null}
      <button ref={button} type="button" className="button" onClick={onLoad} disabled={busy}>
        {busy ? 'loading more…' : 'LOAD MORE'}
      </button>
    </>
  );
}

/**
 * What the list shows under the search box: memoised, so a key typed in the box draws the box
 * only (the table below is memoised too, see photographer-table.tsx).
 */
const PhotographerResults = memo(function PhotographerResults({
  load,
  more,
  onSaved,
  onLoadMore,
}: {
  load: Load;
  more: { busy: boolean; error: string | null };
  onSaved: (p: PhotographerAttributes) => void;
  onLoadMore: () => void;
}) {
  return (
    <>
      <LoadStatus load={load} />
      {load.state === 'loaded' ? (
        <>
          <p className="muted">
            {load.list.data.length} of {load.list.meta.total} photographers{load.words ? ` matching “${load.words}”` : ''}
          </p>
          {load.list.data.length === 0 ? <p className="empty">{load.words ? 'No photographer matches this search.' : 'No photographers have signed up yet.'}</p> : null}
          <PhotographerTable rows={load.list.data} onSaved={onSaved} />
          {load.list.meta.next_cursor ? <LoadMore busy={more.busy} error={more.error} onLoad={onLoadMore} /> : null}
        </>
      ) : null}
    </>
  );
});

/** Photographers list (docs/orders.md §2, admin): search from 3 characters, one row per photographer with the admin's tools. */
export function PhotographersScreen() {
  const [text, setText] = useState('');
  // Typing updates the box at once; the lab is asked once that key's frame is painted (the same
  // rule as the orders list's search), so a key's frame never holds the list's work.
  const words = photographerSearch(useDeferredValue(useAfterPaint(text, nextTask)));
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [more, setMore] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });

  useEffect(() => {
    const ctrl = new AbortController();
    getPhotographers({ search: words, signal: ctrl.signal }).then(
      // Rendered as a transition: React yields between rows, so the answer never blocks a key.
      (list) =>
        startTransition(() => {
          setLoad({ state: 'loaded', list, words });
          setMore({ busy: false, error: null });
        }),
      (err: unknown) => {
        if (ctrl.signal.aborted) return;
        logErrorDetails(err);
        setLoad({ state: 'error', message: errorText(err) });
      },
    );
    return () => ctrl.abort();
  }, [words]);

  const saved = useCallback((p: PhotographerAttributes) => {
    setLoad((l) => (l.state === 'loaded' ? { ...l, list: { ...l.list, data: l.list.data.map((d) => (d.attributes.guid === p.guid ? { ...d, attributes: p } : d)) } } : l));
  }, []);

  const cursor = load.state === 'loaded' ? load.list.meta.next_cursor : null;
  const loadedWords = load.state === 'loaded' ? load.words : '';
  const loadMore = useCallback(() => {
    if (!cursor) return;
    setMore({ busy: true, error: null });
    getPhotographers({ search: loadedWords, cursor }).then(
      (page) =>
        startTransition(() => {
          // Only a page of the list still shown is appended (a search may have replaced it).
          setLoad((l) => (l.state === 'loaded' && l.list.meta.next_cursor === cursor && l.words === loadedWords ? { ...l, list: { data: [...l.list.data, ...page.data], meta: page.meta } } : l));
          setMore({ busy: false, error: null });
        }),
      (err: unknown) => {
        logErrorDetails(err);
        // The rows already shown stay; LOAD MORE asks again when pressed.
        setMore({ busy: false, error: errorText(err) });
      },
    );
  }, [cursor, loadedWords]);

  return (
    <section className="photographers">
      <h1>PHOTOGRAPHERS</h1>
      <label className="search">
        <span className="visually-hidden">Search by Photographer Name, Business, or Email</span>
        <input type="search" placeholder="Search by Photographer Name, Business, or Email" value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <PhotographerResults load={load} more={more} onSaved={saved} onLoadMore={loadMore} />
    </section>
  );
}
