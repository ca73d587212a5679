import { useEffect, useState } from 'react';

// A pause in typing before the server is asked, so a word typed is one request, not ten.
export const CHECK_DELAY_MS = 300;

/**
 * Asks the server about a typed value once typing pauses (is this email taken, does this code
 * exist). Returns the answer only while it is about the value as typed now; null otherwise.
 * `value` null means "not ready to ask" (too short, not an email yet).
 */
export function useServerCheck<T>(value: string | null, ask: (value: string) => Promise<T>, delayMs = CHECK_DELAY_MS): T | null {
  const [answer, setAnswer] = useState<{ value: string; result: T } | null>(null);

  useEffect(() => {
    if (value === null) return;
    let current = true;
    const timer = window.setTimeout(() => {
      ask(value).then(
        (result) => current && setAnswer({ value, result }),
        () => {
          // Unreachable: no answer, so whatever waits on it stays disabled.
        },
      );
    }, delayMs);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [value, ask, delayMs]);

  return value !== null && answer?.value === value ? answer.result : null;
}
