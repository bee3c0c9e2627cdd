import { Navigate, type RouteObject } from 'react-router-dom';
import type { MessageKey } from '../i18n';
import { PrpoLayout } from '../layouts/prpo-layout';
import { PrptLayout } from '../layouts/prpt-layout';
import { RootLayout, RouteErrorView } from '../layouts/root-layout';
import { RequireAuth } from './auth-guard';
import { LazyPage } from './lazy-page';
import { PAGES, type PageName } from './pages';
import { NOT_FOUND_PAGE, ROUTES } from './route-table';

/** The page of a route with the route's title (from the route table, so titles cannot drift from it). */
const page = (name: PageName) => {
  const titleKey = name === NOT_FOUND_PAGE ? 'page.notFound' : ROUTES.find((r) => r.page === name)?.titleKey;
  if (!titleKey) throw new Error(`Page ${name} is not in the route table`);
  return <LazyPage entry={PAGES[name]} titleKey={titleKey as MessageKey} />;
};

/**
 * Spec §2. Nesting mirrors the rules: each part's pages sit in its layout; the prpt standby and intro
 * pages get the prpt layout only through a pathless wrapper route; `RequireAuth` wraps every page except
 * the login pages, both standby and intro pages, and the prpt home. `/` goes to `/prpt`.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorView />,
    children: [
      { path: '/', element: <Navigate to="/prpt" replace /> },
      {
        path: '/prpo',
        element: <PrpoLayout />,
        children: [
          { path: 'standby', element: page('prpo/standby') },
          { path: 'intro', element: page('prpo/intro') },
          { path: 'login', element: page('prpo/login') },
          {
            element: <RequireAuth />,
            children: [
              { index: true, element: page('prpo/home') },
              { path: 'movies', element: page('prpo/movies') },
              { path: 'cinema/:id', element: page('prpo/cinema') },
              { path: 'answer/:id', element: page('prpo/answer') },
              { path: 'result', element: page('prpo/result') },
              { path: 'report/:id', element: page('prpo/report') },
            ],
          },
        ],
      },
      {
        path: '/prpt',
        element: <PrptLayout />,
        children: [
          { index: true, element: page('prpt/home') },
          { path: 'login', element: page('prpt/login') },
          {
            element: <RequireAuth />,
            children: [
              { path: 'movies', element: page('prpt/movies') },
              { path: 'cinema/:id', element: page('prpt/cinema') },
              { path: 'answer/:id', element: page('prpt/answer') },
              { path: 'result', element: page('prpt/result') },
              { path: 'dub/:id', element: page('prpt/dub') },
              { path: 'soundSuggest/:id', element: page('prpt/sound-suggest') },
              { path: 'report', element: page('prpt/report') },
            ],
          },
        ],
      },
      {
        // The wrapper route: prpt standby and intro are outside `/prpt`'s children and receive the
        // prpt layout only from here (spec §2).
        element: <PrptLayout />,
        children: [
          { path: '/prpt/standby', element: page('prpt/standby') },
          { path: '/prpt/intro', element: page('prpt/intro') },
        ],
      },
      { path: '*', element: page('not-found') },
    ],
  },
];
