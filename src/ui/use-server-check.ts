import { useEffect, useState } from 'react';

// A pause in typing before the server is asked, so a word typed is one request, not ten.
export const CHECK_DELAY_MS = 300;
// A check that got no answer (offline, a timeout on a busy link) is asked again this much later,
// so the form does not stay disabled until the user types something else.
export const CHECK_RETRY_MS = 2_000;

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
    let timer = 0;
    const check = () => {
      ask(value).then(
        (result) => current && setAnswer({ value, result }),
        (err: unknown) => {
          // No answer: whatever waits on it stays disabled until a later try answers. A refusal of
          // the value itself (a 4xx other than a timeout or a rate limit) would answer the same.
          const status = (err as { status?: number }).status ?? 0;
          const refused = status >= 400 && status < 500 && status !== 408 && status !== 429;
          if (current && !refused) timer = window.setTimeout(check, CHECK_RETRY_MS);
        },
      );
    };
    timer = window.setTimeout(check, delayMs);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [value, ask, delayMs]);

  return value !== null && answer?.value === value ? answer.result : null;
}
