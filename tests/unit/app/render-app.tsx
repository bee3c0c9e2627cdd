import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeAll } from 'vitest';
import { writeToken } from '../../../src/api/token';
import { routes } from '../../../src/app/router/routes';
import { syncToken } from '../../../src/app/stores/account';
import { clearToasts } from '../../../src/app/stores/toast';
import { type FixtureServer, fixtureServerForFile, json } from '../api/fixture-server';

/** Renders the real route tree at a path (memory history), as the browser would after a page load. */
export function renderAppAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(<RouterProvider router={router} />);
  const here = () => router.state.location.pathname + router.state.location.search;
  return { router, view, here };
}

/** A concrete URL for a route pattern (`:id` → `7`). */
export const concrete = (pattern: string) => pattern.replace(':id', '7');

/**
 * Imports every screen module once. vitest transforms a module on its first import, which on a loaded
 * machine can outlast waitFor's one second in whichever test happens to come first; call it in
 * beforeAll of a file that renders lazy routes.
 */
export const loadScreenModules = () =>
  Promise.all(Object.values(import.meta.glob('../../../src/app/screens/*/*-screen.tsx')).map((f) => f()));

/**
 * The fixture server of a file that renders the app's routes: every screen module imported first
 * ({@link loadScreenModules}), the toasts and the server's answers cleared after each test.
 */
export function appServerForFile(): FixtureServer {
  const server = fixtureServerForFile();
  beforeAll(loadScreenModules);
  afterEach(() => {
    clearToasts();
    server.reset();
  });
  return server;
}

/** A learner signed in with token `stale-token`, and every call answered 1002 (session ended) with `msg`. */
export function expireSession(server: FixtureServer, msg: string): void {
  writeToken('stale-token');
  syncToken();
  server.handle((_r, res) => json(res, { code: 1002, msg, data: null }, 401));
}
