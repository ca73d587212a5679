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

/**
 * An object URL for the thumbnail of `key` while `active`, revoked as soon as it is not. Keyed by
 * the photo, not by the Blob object: every IndexedDB read hands back a new Blob for the same
 * bytes, and a new URL each time would make every visible thumbnail load again.
 */
export function useObjectUrl(blob: Blob | undefined, active: boolean, key: string): string | null {
  const [made, setMade] = useState<{ key: string; url: string } | null>(null);
  const has = blob !== undefined;
  useEffect(() => {
    if (!blob || !active) return undefined;
    const url = URL.createObjectURL(blob);
    // Published from a microtask: the URL is an external resource this effect owns and revokes.
    queueMicrotask(() => setMade({ key, url }));
    return () => {
      URL.revokeObjectURL(url);
      setMade((m) => (m?.url === url ? null : m));
    };
    // The Blob itself is left out on purpose (see above): the same key has the same bytes.
    // oxlint-disable-next-line react/exhaustive-deps
  }, [key, has, active]);
  return active && made && made.key === key ? made.url : null;
}
