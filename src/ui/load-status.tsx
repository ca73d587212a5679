import type { ReactNode } from 'react';

/** What a screen's own load says of itself: the shape every screen's load state shares. */
export interface LoadState {
  readonly state: string;
  /** With 'error': the words shown after ERROR LOADING. */
  readonly message?: string;
}

/**
 * A full screen's 'loading' while its data is on its way, and its 'ERROR LOADING: …' when the lab
 * could not give it (docs/accounts.md §2's wording), in one place so every screen says it alike and a
 * screen reader hears the first as a status and the second as an alert. Nothing once loaded.
 * `children` follow the error's words (a RELOAD, say).
 */
export function LoadStatus({ load, children }: { load: LoadState; children?: ReactNode }) {
  if (load.state === 'loading') return <p role="status">loading</p>;
  if (load.state !== 'error') return null;
  return (
    <p role="alert" className="load-error">
      ERROR LOADING: {load.message}
      {children ? <> {children}</> : null}
    </p>
  );
}
