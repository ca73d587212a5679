import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from './ui/router.tsx';
import { setTokenSource, setUnauthorizedHandler } from './api/client.ts';
import { getClientConfig } from './api/client-config.ts';
import { startErrorReporting } from './api/error-reporting.ts';
import { RUNNING_VERSION, startAppUpdates } from './app/app-update.ts';
import { AppRoutes } from './app/app-routes.tsx';
import { clearUserDataOnSignOut, sendChangesWhileSignedIn } from './app/session-effects.ts';
import { reloadOnStaleChunks } from './app/stale-chunks.ts';
import { UpdateBanner } from './app/update-banner.tsx';
import { currentToken, endRefusedSession } from './api/session.ts';
import { watchConnectivity } from './offline/connectivity.ts';
import { Toaster } from './ui/toasts/toaster.tsx';
import './app/app.css';

// Calls carry this page's session's token, and any 401 on a signed-in call ends that session here
// too (docs/accounts.md §4); the auth guard then shows /login with the logged-out notice.
setTokenSource(currentToken);
setUnauthorizedHandler(endRefusedSession);
void startErrorReporting({ fetchConfig: getClientConfig, release: RUNNING_VERSION });
clearUserDataOnSignOut();
sendChangesWhileSignedIn();
document.documentElement.dataset.appVersion = RUNNING_VERSION;
startAppUpdates();
reloadOnStaleChunks();
watchConnectivity();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
// The first render is a transition: React renders it in slices, so on a slow phone the app's first
// paint is not one long task that blocks the first tap.
startTransition(() =>
  createRoot(root).render(
    <StrictMode>
      <UpdateBanner />
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      <Toaster />
    </StrictMode>,
  ),
);
