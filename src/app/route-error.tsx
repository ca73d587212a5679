import { useEffect } from 'react';
import { reportError } from '../api/error-reports.ts';
import { errorLines } from '../api/errors.ts';

/** What the routes' error boundary shows (src/app/app-routes.tsx): what happened and a way out. */
export function RouteError({ error }: { error: unknown }) {
  useEffect(() => {
    console.error(error);
    reportError(error, { source: 'screen' });
  }, [error]);
  return (
    <main className="page" role="alert">
      <h1>Something went wrong</h1>
      {errorLines(error).map((line, i) => (
        <p key={i}>{line}</p>
      ))}
      <p>
        <a href={window.location.href}>RELOAD PAGE</a>
      </p>
    </main>
  );
}
