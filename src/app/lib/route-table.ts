/**
 * Every route of the app, one row each (spec §2), as plain data: no React, no DOM. The router
 * (routes.tsx), the route tests and the bundle report (scripts/print-bundle-sizes.ts) all read this
 * table. Adding a route is one row here plus its screen, `src/app/screens/<screen>/<screen>-screen.tsx`,
 * whose default export renders it.
 */
import type { Part } from '../../api/contract';
import type { MessageTier } from '../i18n/tiers';

export type { Part };

export interface RouteRow {
  path: string;
  part: Part;
  /** The folder under `src/app/screens/`; its `<screen>-screen.tsx` is the route's lazy chunk. */
  screen: string;
  /** `auth`: behind the authentication wrapper (spec §6); `public`: open to everyone. */
  guard: 'auth' | 'public';
  /**
   * `part`: a child of the part's layout route (`/prpo`, `/prpt`). `wrapper`: outside it, given the
   * part's layout by a pathless wrapper route (spec §2: the prpt standby and intro routes).
   */
  layout: 'part' | 'wrapper';
  /** i18n key of the page title. */
  title: `page.${string}`;
  /** `<part>/<screen>`: names the route's chunk in load errors and marks the rendered page (`data-page`). */
  page: string;
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

const row = (
  path: string,
  part: Part,
  screen: string,
  guard: RouteRow['guard'],
  layout: RouteRow['layout'] = 'part',
): RouteRow => ({
  path,
  part,
  screen,
  guard,
  layout,
  title: `page.${part}.${camel(screen)}`,
  page: `${part}/${screen}`,
  messages: FIRST_PATH.has(screen) ? 'first' : 'later',
});

export const ROUTES: readonly RouteRow[] = [
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
];

/** What `/` redirects to (spec §2). */
export const ROOT_REDIRECT = '/prpt';

/** Any path no row matches: outside both parts' layouts. */
export const NOT_FOUND = {
  screen: 'not-found',
  page: 'not-found',
  title: 'page.notFound',
  messages: 'first',
} as const satisfies Pick<RouteRow, 'screen' | 'page' | 'title' | 'messages'>;

/** Source file of a screen module, relative to the repository (a key of the build manifest). */
export const screenFile = (screen: string) => `src/app/screens/${screen}/${screen}-screen.tsx`;
