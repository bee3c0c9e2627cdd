import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { loadMessages, type MessageKey, type MessageTier } from '../i18n';
import { PartLayout } from '../layouts/part-layout';
import { RootLayout } from '../layouts/root-layout';
import { RequireAuth } from './auth-guard';
import { LazyPage, type LazyEntry, lazyPage } from './lazy-page';
import { AREAS, type Area, NOT_FOUND, ROOT_REDIRECT, ROUTES, type RouteRow } from '../lib/route-table';

/**
 * Every screen module, each its own lazy chunk (load-chunk.ts errors, the first-screen budget). The
 * glob is what keeps the import paths literal for the bundler while the table names screens as data.
 */
const SCREENS = import.meta.glob<{ default: ComponentType }>('../screens/*/*-screen.tsx');

/**
 * A page's chunk: the screen module and, beside it, its message tier (one load: a failure or timeout
 * of either is the page's chunk error, and a retry runs both again).
 */
function entryFor(page: string, screen: string, messages: MessageTier): LazyEntry {
  const importer = SCREENS[`../screens/${screen}/${screen}-screen.tsx`];
  if (!importer)
    throw new Error(`Route ${page}: no screen module src/app/screens/${screen}/${screen}-screen.tsx`);
  return lazyPage(page, () => Promise.all([importer(), loadMessages(messages)]).then(([m]) => m));
}

/** One lazy entry per page, built once: a retry renews the entry the route renders. */
export const PAGES: Readonly<Record<string, LazyEntry>> = Object.fromEntries(
  [...ROUTES, NOT_FOUND].map((r) => [r.page, entryFor(r.page, r.screen, r.messages)]),
);

const element = (r: { page: string; title: string }) => (
  <LazyPage entry={PAGES[r.page]} titleKey={r.title as MessageKey} />
);

/** Public rows as they are, guarded rows under one `RequireAuth`. */
function guarded(rows: readonly RouteRow[], toRoute: (r: RouteRow) => RouteObject): RouteObject[] {
  const auth = rows.filter((r) => r.guard === 'auth');
  return [
    ...rows.filter((r) => r.guard === 'public').map(toRoute),
    ...(auth.length ? [{ element: <RequireAuth />, children: auth.map(toRoute) }] : []),
  ];
}

/**
 * An area's routes: rows with layout `area` are children of the area's path route (`/prpt` itself is
 * its index); rows with layout `wrapper` keep their full path and get the same layout from a pathless
 * wrapper route, never through `/prpt`.
 */
function areaRoutes(area: Area): RouteObject[] {
  const base = `/${area}`;
  const rows: readonly RouteRow[] = ROUTES.filter((r) => r.area === area);
  const inPart = rows.filter((r) => r.layout === 'area');
  const wrapped = rows.filter((r) => r.layout === 'wrapper');
  const relative = (r: RouteRow): RouteObject =>
    r.path === base
      ? { index: true, element: element(r) }
      : { path: r.path.slice(base.length + 1), element: element(r) };
  const absolute = (r: RouteRow): RouteObject => ({ path: r.path, element: element(r) });
  return [
    { path: base, element: <PartLayout area={area} />, children: guarded(inPart, relative) },
    ...(wrapped.length
      ? [{ element: <PartLayout area={area} />, children: guarded(wrapped, absolute) }]
      : []),
  ];
}

/** The route tree, built from the table: `/` redirects, each area's routes, then the 404. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <Navigate to={ROOT_REDIRECT} replace /> },
      ...AREAS.flatMap(areaRoutes),
      { path: '*', element: element(NOT_FOUND) },
    ],
  },
];
