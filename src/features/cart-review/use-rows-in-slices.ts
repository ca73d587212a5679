import { useEffect, useState } from 'react';

// Rows mounted at once: more than a tall screen shows, few enough that mounting them stays well
// under one 50 ms task on a slow phone.
const FIRST_ROWS = 40;
// Rows added per following task: each slice is its own small commit, so a click between slices
// is handled at once instead of waiting for a 1,000-row mount, a long task in the bench
// (docs/performance.md, "builder 1,000").
const SLICE_ROWS = 60;

/**
 * How many of a long list's rows to mount now: the first screenful at once, then the rest a slice
 * per macrotask. The count only grows (a row once shown stays), and follows the list as it grows.
 */
export function useRowsInSlices(total: number): number {
  const [shown, setShown] = useState(Math.min(total, FIRST_ROWS));
  useEffect(() => {
    if (shown >= total) return undefined;
    // setTimeout, not requestAnimationFrame: a hidden tab still finishes the list.
    const timer = setTimeout(() => setShown((n) => Math.min(total, Math.max(n, FIRST_ROWS) + SLICE_ROWS)), 0);
    return () => clearTimeout(timer);
  }, [shown, total]);
  return Math.min(total, Math.max(shown, FIRST_ROWS));
}
