import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { dismissToast, useToasts, type Toast } from './toast-store.ts';

// A toast dragged sideways further than this is dismissed, as with a swipe.
const DISMISS_DRAG_PX = 80;

/** Top-right toasts: closable, paused while hovered or focused, draggable to dismiss. */
export function Toaster() {
  const toasts = useToasts((s) => s.toasts);
  return (
    <div className="toaster" aria-live="polite">
      {toasts.map((t) => (
        <ToastCard key={t.id} toast={t} />
      ))}
    </div>
  );
}

function ToastCard({ toast }: { toast: Toast }) {
  const [paused, setPaused] = useState(false);
  const [dragX, setDragX] = useState(0);
  const remaining = useRef(toast.durationMs);
  const dragStart = useRef<number | null>(null);

  useEffect(() => {
    if (paused || dragStart.current !== null) return;
    const started = Date.now();
    const timer = window.setTimeout(() => dismissToast(toast.id), remaining.current);
    return () => {
      window.clearTimeout(timer);
      remaining.current -= Date.now() - started;
    };
  }, [paused, toast.id]);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if ((e.target as HTMLElement).closest('button')) return;
    dragStart.current = e.clientX;
    e.currentTarget.setPointerCapture(e.pointerId);
    setPaused(true);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragStart.current !== null) setDragX(e.clientX - dragStart.current);
  };
  const onPointerUp = () => {
    if (dragStart.current === null) return;
    dragStart.current = null;
    if (Math.abs(dragX) > DISMISS_DRAG_PX) dismissToast(toast.id);
    else {
      setDragX(0);
      setPaused(false);
    }
  };

  return (
    <div
      className={`toast toast-${toast.kind}`}
      role={toast.kind === 'error' ? 'alert' : 'status'}
      style={{ transform: `translateX(${dragX}px)`, opacity: 1 - Math.min(Math.abs(dragX) / (DISMISS_DRAG_PX * 2), 0.6) }}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      data-paused={paused}
    >
      <div className="toast-body">
        {toast.lines.map((line, i) => (
          <p key={i}>{line}</p>
        ))}
      </div>
      <button type="button" className="toast-close" aria-label="Close notification" onClick={() => dismissToast(toast.id)}>
        ×
      </button>
      <div
        className="toast-timer"
        style={{ animationDuration: `${toast.durationMs}ms`, animationPlayState: paused ? 'paused' : 'running' }}
      />
    </div>
  );
}
