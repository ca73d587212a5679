import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from '../../ui/router.tsx';
import { getStatus, login } from '../../api/auth.ts';
import { ApiError, LOGGED_OUT_MESSAGE, LOGIN_FAILED_MESSAGE, errorLines, logErrorDetails } from '../../api/errors.ts';
import { saveSession } from '../../api/session.ts';
import { isOnline, useConnectivity } from '../../offline/connectivity.ts';
import { LOGGED_OUT_FLAG, ROUTES } from '../../app/routes.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import { ErrorLines } from '../../ui/error-lines.tsx';

type ServerState = 'checking' | 'online' | 'offline';

/** A sign-in tried without a connection: said only after SIGN IN, never on the screen's own. */
export const SIGN_IN_OFFLINE = 'This device is offline. Connect to the internet, then sign in.';
interface FromState {
  from?: { pathname: string; search?: string; hash?: string };
}

/** /login (docs/accounts.md §2): email, password, SIGN IN, RESET and SIGN UP, server status check. */
export function LoginScreen() {
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string[] | null>(null);
  const [server, setServer] = useState<ServerState>('checking');
  const notified = useRef<string | null>(null);

  useEffect(() => {
    const ctrl = new AbortController();
    getStatus(ctrl.signal).then(
      () => setServer('online'),
      () => !ctrl.signal.aborted && setServer('offline'),
    );
    return () => ctrl.abort();
  }, []);

  useEffect(() => {
    if (params.get(LOGGED_OUT_FLAG) !== 'true' || notified.current === location.key) return;
    notified.current = location.key;
    toast.info(LOGGED_OUT_MESSAGE);
    // Drop the flag so a reload does not repeat the notice; keep where the user came from.
    const next = new URLSearchParams(params);
    next.delete(LOGGED_OUT_FLAG);
    setParams(next, { replace: true, state: location.state });
  }, [params, setParams, location.key, location.state]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    if (!isOnline(useConnectivity.getState())) {
      setFailure([SIGN_IN_OFFLINE]);
      return;
    }
    setBusy(true);
    try {
      saveSession(await login(email, password));
      const from = (location.state as FromState | null)?.from;
      void navigate(from ? `${from.pathname}${from.search ?? ''}${from.hash ?? ''}` : ROUTES.home, { replace: true });
    } catch (err) {
      logErrorDetails(err);
      if (err instanceof ApiError && err.status === 401) {
        setFailure([LOGIN_FAILED_MESSAGE, ...errorLines(err)]);
      } else if (err instanceof ApiError && err.kind === 'network') {
        setFailure([SIGN_IN_OFFLINE]);
      } else {
        setFailure(errorLines(err));
        toast.error(errorLines(err));
      }
      setBusy(false);
    }
  };

  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={(e) => void onSubmit(e)} noValidate={false}>
        <img className="auth-logo" src="/logo.svg" alt="Print lab" width="56" height="56" />
        <h1>SIGN IN</h1>
        <label>
          Email
          <input type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          Password
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <ErrorLines lines={failure ?? []} />
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'SIGNING IN...' : 'SIGN IN'}
        </button>
        <p className="auth-links">
          Forgot your password? <Link to={ROUTES.forgotPassword}>RESET</Link>
        </p>
        <p className="auth-links">
          New to the lab? <Link to={ROUTES.signupStep1}>SIGN UP</Link>
        </p>
        {/* Only the good news: a lab out of reach is said when a sign-in is tried (onSubmit). */}
        <p className={`server-status server-${server}`} role="status">
          {server === 'online' && 'Lab server online'}
        </p>
      </form>
    </main>
  );
}
