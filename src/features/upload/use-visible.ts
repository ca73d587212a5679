import { useCallback, useEffect, useState } from 'react';

/** Thumbnails start loading a little before they scroll into view. */
const AHEAD = '300px';

/**
 * Whether an element is on (or near) the screen. Thumbnails exist as object URLs only while
 * visible, so a 1,000-photo order keeps a screenful of decoded thumbnails, not 1,000.
 */
export function useVisible<T extends Element>(): [(el: T | null) => void, boolean] {
  const [el, setEl] = useState<T | null>(null);
  const [seen, setSeen] = useState<{ el: T; visible: boolean } | null>(null);
  useEffect(() => {
    if (!el || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver((entries) => setSeen({ el, visible: entries.some((e) => e.isIntersecting) }), { rootMargin: AHEAD });
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  // Without IntersectionObserver (old browsers), everything counts as visible.
  const visible = el !== null && (typeof IntersectionObserver === 'undefined' || (seen?.el === el && seen.visible));
  return [useCallback((node: T | null) => setEl(node), []), visible];
}

/** An object URL for `blob` while `active`, revoked as soon as it is not. */
export function useObjectUrl(blob: Blob | undefined, active: boolean): string | null {
  const [made, setMade] = useState<{ blob: Blob; url: string } | null>(null);
  useEffect(() => {
    if (!blob || !active) return undefined;
    const url = URL.createObjectURL(blob);
    // Published from a microtask: the URL is an external resource this effect owns and revokes.
    queueMicrotask(() => setMade({ blob, url }));
    return () => {
      URL.revokeObjectURL(url);
      setMade((m) => (m?.url === url ? null : m));
    };
  }, [blob, active]);
  return active && made && made.blob === blob ? made.url : null;
}
