import { useEffect, useRef } from 'react';

// Start loading the next page this far before the end of the list comes into view, so scrolling
// rarely waits for it.
const AHEAD_PX = 600;

/**
 * The end of a paged list: LOAD MORE, pressed by itself as it scrolls into view (and by hand, with
 * a keyboard, or after a failure, which it does not retry on its own).
 */
export function LoadMore({ busy, error, onLoad }: { busy: boolean; error: string | null; onLoad: () => void }) {
  const button = useRef<HTMLButtonElement>(null);
  const auto = !busy && !error;

  useEffect(() => {
    const target = button.current;
    if (!auto || !target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onLoad(), { rootMargin: `0px 0px ${AHEAD_PX}px 0px` });
    observer.observe(target);
    return () => observer.disconnect();
  }, [auto, onLoad]);

  return (
    <div className="load-more">
      {error ? <p role="alert">Could not load more orders: {error}</p> : null}
      <button ref={button} type="button" className="button" onClick={onLoad} disabled={busy}>
        {busy ? 'loading more…' : 'LOAD MORE'}
      </button>
    </div>
  );
}
