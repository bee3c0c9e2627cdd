import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { routes } from '../../../src/app/router/routes';

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
