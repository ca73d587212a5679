import { startTransition, useEffect, useState } from 'react';

/**
 * The value, once the frame that shows it has been painted (a requestAnimationFrame, then a task):
 * a search key's frame draws the box only; the list's query, its render and its layout follow in
 * the next one (as a transition, so a later key interrupts them). Used by the orders and the
 * photographers lists' search boxes, which pass the way to wait for a task (src/offline/next-task.ts).
 */
export function useAfterPaint(value: string, nextTask: () => Promise<void>): string {
  const [painted, setPainted] = useState(value);
  useEffect(() => {
    if (painted === value) return;
    let live = true;
    const frame = requestAnimationFrame(() => {
      void nextTask().then(() => live && startTransition(() => setPainted(value)));
    });
    return () => {
      live = false;
      cancelAnimationFrame(frame);
    };
  }, [value, painted, nextTask]);
  return painted;
}
