/**
 * Every route of the app, one row each, as plain data: no React, no DOM. The router
 * (router/routes.tsx), the href builders (lib/paths.ts), the route tests and the bundle report
 * (scripts/print-bundle-sizes.ts) all read this table. Adding a route is one row here plus its
 * screen, `src/app/screens/<screen>/<screen>-screen.tsx`, whose default export renders it; adding an
 * area (a set of routes under one path with its own layout) is rows too: the `Area` type is read
 * from the rows.
 */
import type { MessageTier } from '../i18n/tiers';

export interface RouteRow<A extends string = string, S extends string = string> {
  path: string;
  /** The area whose layout frames the route: the first segment of its path (`/prpo`, `/prpt`). */
  area: A;
  /** The folder under `src/app/screens/`; its `<screen>-screen.tsx` is the route's lazy chunk. */
  screen: S;
  /** `auth`: behind the authentication wrapper (router/auth-guard.tsx); `public`: open to everyone. */
  guard: 'auth' | 'public';
  /**
   * `area`: a child of the area's layout route (`/prpo`, `/prpt`). `wrapper`: outside it, given the
   * area's layout by a pathless wrapper route (the prpt standby and intro routes, docs/api.md).
   */
  layout: 'area' | 'wrapper';
  /** i18n key of the page title. */
  title: `page.${string}`;
  /** `<area>/<screen>`: names the route's chunk in load errors and marks the rendered page (`data-page`). */
  page: `${A}/${S}`;
  /**
   * The message tier the screen needs (src/app/i18n): `first` for the screens on the first path,
   * whose words ship in the entry; `later` loads the later tier beside the screen's chunk.
   */
  messages: MessageTier;
}

const camel = (s: string) => s.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/**
 * The screens a visit meets before training starts: their words are in the entry (the first tier).
 * Every other screen loads the later tier with its chunk; a new screen does so until it is listed here.
 */
const FIRST_PATH: ReadonlySet<string> = new Set(['home', 'standby', 'intro', 'login', 'movies']);

const row = <A extends string, S extends string>(
  path: string,
  area: A,
  screen: S,
  guard: RouteRow['guard'],
  layout: RouteRow['layout'] = 'area',
): RouteRow<A, S> => ({
  path,
  area,
  screen,
  guard,
  layout,
  title: `page.${area}.${camel(screen)}`,
  page: `${area}/${screen}`,
  messages: FIRST_PATH.has(screen) ? 'first' : 'later',
});

export const ROUTES = [
  row('/prpo', 'prpo', 'home', 'auth'),
  row('/prpo/standby', 'prpo', 'standby', 'public'),
  row('/prpo/intro', 'prpo', 'intro', 'public'),
  row('/prpo/login', 'prpo', 'login', 'public'),
  row('/prpo/movies', 'prpo', 'movies', 'auth'),
  row('/prpo/cinema/:id', 'prpo', 'cinema', 'auth'),
  row('/prpo/answer/:id', 'prpo', 'answer', 'auth'),
  row('/prpo/result', 'prpo', 'result', 'auth'),
  row('/prpo/report/:id', 'prpo', 'report', 'auth'),
  row('/prpt', 'prpt', 'home', 'public'),
  row('/prpt/standby', 'prpt', 'standby', 'public', 'wrapper'),
  row('/prpt/intro', 'prpt', 'intro', 'public', 'wrapper'),
  row('/prpt/login', 'prpt', 'login', 'public'),
  row('/prpt/movies', 'prpt', 'movies', 'auth'),
  row('/prpt/cinema/:id', 'prpt', 'cinema', 'auth'),
  row('/prpt/answer/:id', 'prpt', 'answer', 'auth'),
  row('/prpt/result', 'prpt', 'result', 'auth'),
  row('/prpt/dub/:id', 'prpt', 'dub', 'auth'),
  row('/prpt/soundSuggest/:id', 'prpt', 'sound-suggest', 'auth'),
  row('/prpt/report', 'prpt', 'report', 'auth'),
] as const;

/** An area of the app: each has its own layout and base path, and is defined by its rows above. */
export type Area = (typeof ROUTES)[number]['area'];
/** A route's page name, `<area>/<screen>`. */
export type Page = (typeof ROUTES)[number]['page'];

/** The areas, in the table's order. */
export const AREAS: readonly Area[] = [...new Set(ROUTES.map((r) => r.area))];

/** What `/` redirects to. */
export const ROOT_REDIRECT = '/prpt';

/** Any path no row matches: outside every area's layout. */
export const NOT_FOUND = {
  screen: 'not-found',
  page: 'not-found',
  title: 'page.notFound',
  messages: 'first',
} as const satisfies Pick<RouteRow, 'screen' | 'title' | 'messages'> & { page: string };

/** Source file of a screen module, relative to the repository (a key of the build manifest). */
export const screenFile = (screen: string) => `src/app/screens/${screen}/${screen}-screen.tsx`;
