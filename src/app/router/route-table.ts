/**
 * The route table of spec §2 as plain data (no React, no DOM), so the router, the browser test and the
 * bundle-size script all read the same list. `page` names the module under `src/app/pages/` and is also
 * the chunk name used in load errors.
 */
export type Part = 'prpo' | 'prpt';

export interface RouteSpec {
  path: string;
  part: Part;
  page: string;
  /** Behind the authentication wrapper (spec §6). */
  auth: boolean;
  /** i18n key of the page title, `page.<part>.<name>`. */
  titleKey: `page.${string}`;
}

const r = (path: string, part: Part, name: string, auth: boolean, titleName = name): RouteSpec => ({
  path,
  part,
  page: `${part}/${name}`,
  auth,
  titleKey: `page.${part}.${titleName}`,
});

export const ROUTES: readonly RouteSpec[] = [
  r('/prpo', 'prpo', 'home', true),
  r('/prpo/standby', 'prpo', 'standby', false),
  r('/prpo/intro', 'prpo', 'intro', false),
  r('/prpo/login', 'prpo', 'login', false),
  r('/prpo/movies', 'prpo', 'movies', true),
  r('/prpo/cinema/:id', 'prpo', 'cinema', true),
  r('/prpo/answer/:id', 'prpo', 'answer', true),
  r('/prpo/result', 'prpo', 'result', true),
  r('/prpo/report/:id', 'prpo', 'report', true),
  r('/prpt', 'prpt', 'home', false),
  r('/prpt/standby', 'prpt', 'standby', false),
  r('/prpt/intro', 'prpt', 'intro', false),
  r('/prpt/login', 'prpt', 'login', false),
  r('/prpt/movies', 'prpt', 'movies', true),
  r('/prpt/cinema/:id', 'prpt', 'cinema', true),
  r('/prpt/answer/:id', 'prpt', 'answer', true),
  r('/prpt/result', 'prpt', 'result', true),
  r('/prpt/dub/:id', 'prpt', 'dub', true),
  r('/prpt/soundSuggest/:id', 'prpt', 'sound-suggest', true, 'soundSuggest'),
  r('/prpt/report', 'prpt', 'report', true),
];

export const NOT_FOUND_PAGE = 'not-found';

/** Source file of a page module (for the bundle-size report). */
export const pageFile = (page: string) => `src/app/pages/${page}.tsx`;
