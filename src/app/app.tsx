import { BrowserRouter, useRoutes } from 'react-router-dom';
import { ChunkErrorBoundary } from './router/chunk-error-boundary';
import { routes } from './router/routes';

/**
 * The app in React Router's declarative mode (BrowserRouter + useRoutes): the app uses no loaders,
 * actions or fetchers, and the data router they need is ~18 KB gzip of the first screen
 * (docs/performance.md, "First screen JavaScript").
 */
function AppRoutes() {
  return useRoutes(routes);
}

const reload = () => window.location.reload();

export function App() {
  return (
    // Navigations render as ordinary updates, not transitions, so logout can render the destination
    // before it wipes the session (stores/use-logout.ts); each route's LazyPage has its own Suspense.
    <BrowserRouter useTransitions={false}>
      {/* Last resort for errors outside a page's own boundary: still a readable message and a way out. */}
      <ChunkErrorBoundary onRetry={reload}>
        <AppRoutes />
      </ChunkErrorBoundary>
    </BrowserRouter>
  );
}
