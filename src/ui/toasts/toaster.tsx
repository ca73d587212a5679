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
  const startedAt = useRef(0);
  const timer = useRef<number | undefined>(undefined);
  const dragStart = useRef<number | null>(null);
  const card = useRef<HTMLDivElement>(null);

  // The countdown is paused and resumed inside the event handlers themselves, so no timer can
  // fire between a hover and the re-render it causes.
  const run = () => {
    if (timer.current !== undefined) return;
    startedAt.current = Date.now();
    timer.current = window.setTimeout(() => {
      timer.current = undefined;
      // Still under the pointer (however it got there): wait for it to leave.
      if (card.current?.matches(':hover')) {
        remaining.current = 0;
        setPaused(true);
      } else dismissToast(toast.id);
    }, remaining.current);
  };
  const pause = () => {
    if (timer.current !== undefined) {
      window.clearTimeout(timer.current);
      timer.current = undefined;
      remaining.current -= Date.now() - startedAt.current;
    }
    setPaused(true);
  };
  const resume = () => {
    run();
    setPaused(false);
  };

  useEffect(() => {
    // Native enter and leave, not React's: React derives them from the element the pointer came
    // from, and misses the enter when that element is gone, as when LOG OUT, clicked in the
    // top-right corner, gives way to the sign-in screen and this toast appears under the pointer.
    const el = card.current;
    el?.addEventListener('pointerenter', pause);
    el?.addEventListener('pointerleave', resume);
    run();
    return () => {
      el?.removeEventListener('pointerenter', pause);
      el?.removeEventListener('pointerleave', resume);
      window.clearTimeout(timer.current);
      timer.current = undefined;
    };
    // Started once per toast; pause and resume handle the rest.
    // oxlint-disable-next-line react/exhaustive-deps
  }, []);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if ((e.target as HTMLElement).closest('button')) return;
    dragStart.current = e.clientX;
    e.currentTarget.setPointerCapture(e.pointerId);
    pause();
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragStart.current !== null) setDragX(e.clientX - dragStart.current);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    if (dragStart.current === null) return;
    dragStart.current = null;
    if (Math.abs(dragX) > DISMISS_DRAG_PX) {
      dismissToast(toast.id);
      return;
    }
    setDragX(0);
    // A mouse still hovers (pointerleave resumes); a finger has left the screen.
    if (e.pointerType !== 'mouse') resume();
  };

  return (
    <div
      ref={card}
      className={`toast toast-${toast.kind}`}
      role={toast.kind === 'error' ? 'alert' : 'status'}
      style={{ transform: `translateX(${dragX}px)`, opacity: 1 - Math.min(Math.abs(dragX) / (DISMISS_DRAG_PX * 2), 0.6) }}
      onFocus={pause}
      onBlur={resume}
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
