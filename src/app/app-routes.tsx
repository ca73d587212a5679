import { Component, Suspense, type ReactNode } from 'react';
import { useLocation, useRoutes, type Location } from 'react-router-dom';
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
 * The app's routes (src/app/router.tsx) in the plain (declarative) router: React Router's data
 * router (loaders, actions, fetchers) cost about 15 KB gzip of every page's JavaScript and the app
 * used none of it. The first screen shows 'loading' while its code arrives (accounts.md §2);
 * later navigations are transitions, so the current screen stays, inert, until the next one is
 * ready (src/app/screen-frame.tsx).
 */
export function AppRoutes() {
  const location = useLocation();
  const element = useRoutes(routes, location);
  return (
    <RouteErrorBoundary location={location}>
      <Suspense fallback={<RouteLoading />}>{element}</Suspense>
    </RouteErrorBoundary>
  );
}
