import { useEffect } from 'react';
import { useRouteError } from 'react-router-dom';
import { reportError } from '../api/error-reporting.ts';
import { errorLines } from '../api/errors.ts';

/** The error boundary of every route: a crash in a screen shows what happened and a way out. */
export function RouteError() {
  const error = useRouteError();
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
