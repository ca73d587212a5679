import { useEffect, useState } from 'react';

/**
 * Reads the order again every `intervalMs` while `active` (work a lab job finishes later: the
 * vendor send), at most `max` times in a row; answers whether it is still reading. When `active`
 * ends the count starts over for the next time.
 */
export function usePollWhile(active: boolean, reload: () => void, intervalMs: number, max: number): boolean {
  const [polls, setPolls] = useState(0);
  // A new stretch of activity starts counting afresh (state adjusted while rendering, not in an effect).
  const [wasActive, setWasActive] = useState(active);
  if (active !== wasActive) {
    setWasActive(active);
    if (active) setPolls(0);
  }
  const polling = active && polls < max;
  useEffect(() => {
    if (!polling) return;
    const timer = setInterval(() => {
      reload();
      setPolls((n) => n + 1);
    }, intervalMs);
    return () => clearInterval(timer);
  }, [polling, reload, intervalMs]);
  return polling;
}
