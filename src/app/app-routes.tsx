import { Component, Suspense, startTransition, useLayoutEffect, useState, type ReactNode } from 'react';
import { useLocation, useRoutes, type Location } from '../ui/router.tsx';
import { RouteError } from './route-error.tsx';
import { RouteLoading } from './route-loading.tsx';
import { routes } from './router.tsx';

interface BoundaryProps {
  location: Location;
  children: ReactNode;
}

interface BoundaryState {
  error: unknown;
  location: Location;
}

/**
 * The error boundary of every route: a crash in a screen, or its code failing to load, shows the
 * error screen instead of the app. Going to another address tries again.
 */
class RouteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, location: this.props.location };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    // A thrown nothing is still a failure: keep something to show.
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.location === state.location ? null : { error: null, location: props.location };
  }

  override render() {
    return this.state.error ? <RouteError error={this.state.error} /> : this.props.children;
  }
}

/**
 * The app's routes (src/app/router.tsx) in the app's own router (src/ui/router.tsx,
 * docs/performance-notes.md §4). The first screen shows 'loading' while its code arrives (docs/accounts.md §2);
 * later navigations are transitions, so the current screen stays, inert, until the next one is
 * ready (src/app/screen-frame.tsx).
 *
 * The first 'loading' is the boundary's content, not its fallback, and the first screen replaces
 * it in a transition. React shows a boundary's content no sooner than FALLBACK_THROTTLE_MS after
 * that boundary last showed its fallback (against flicker): with 'loading' as the fallback, the
 * orders list was held back long after its code and its answer were in (docs/performance-notes.md §3).
 * A transition on a boundary already on show keeps what it shows until the new screen is ready
 * instead, so the screen comes the moment its code is in, and 'loading' is never a fallback.
 */
export function AppRoutes() {
  const location = useLocation();
  const element = useRoutes(routes, location);
  const [started, setStarted] = useState(false);
  // The transition is scheduled from the first commit and rendered in a task of its own, so
  // 'loading' may be painted first; the first screen's files are already on their way (the page
  // names them, scripts/route-preloads.ts).
  useLayoutEffect(() => startTransition(() => setStarted(true)), []);
  return (
    <RouteErrorBoundary location={location}>
      <Suspense fallback={<RouteLoading />}>{started ? element : <RouteLoading />}</Suspense>
    </RouteErrorBoundary>
  );
}
