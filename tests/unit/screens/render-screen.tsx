import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';

function Where() {
  const { pathname } = useLocation();
  return <p data-testid="where">{pathname}</p>;
}

/**
 * Renders one screen at `path` (matched by `pattern`) in a memory router; any other path shows
 * `data-testid="where"` with the pathname, so a test can assert where a button led.
 */
export function renderScreen(
  element: ReactElement,
  path: string,
  pattern = path,
  extra: Record<string, ReactElement> = {},
) {
  const router = createMemoryRouter(
    [
      { path: pattern, element },
      ...Object.entries(extra).map(([p, el]) => ({ path: p, element: el })),
      { path: '*', element: <Where /> },
    ],
    { initialEntries: [path] },
  );
  return { router, ...render(<RouterProvider router={router} />) };
}
