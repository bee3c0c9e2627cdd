import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { afterEach, beforeEach } from 'vitest';
import { setLang } from '../../../src/app/i18n';
import { reportState } from '../../../src/app/screens/report/report-state';
import { prpt } from '../../../src/app/stores/films';
import { type FixtureServer, fixtureServerForFile } from '../api/fixture-server';

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

/**
 * The fixture server of a file that renders part two's report: Chinese before each test; after it the
 * server's answers, the films store and the report's state reset.
 */
export function reportServerForFile(): FixtureServer {
  const server = fixtureServerForFile();
  beforeEach(() => setLang('zh'));
  afterEach(() => {
    server.reset();
    prpt.reset();
    reportState('prpt').reset();
  });
  return server;
}
