/**
 * Every link of the app, built from the route table (lib/route-table.ts): one builder per row, so a
 * path is spelt once and a screen never assembles one by hand. Also the area a screen is rendered in
 * (set by the area's layout) and the login round trip.
 */
import { createContext, useContext } from 'react';
import type { Part } from '../../api/contract';
import { type Area, type Page, ROUTES } from './route-table';

export type { Area, Part };

const PATHS: ReadonlyMap<string, string> = new Map(ROUTES.map((r) => [r.page, r.path]));

type Query = Readonly<Record<string, string>>;

/** A row's path with its `:name` parameters filled in and a query added, each value encoded. */
function fill(page: Page, params: Query = {}, query: Query = {}): string {
  const path = PATHS.get(page);
  if (path === undefined) throw new Error(`No route ${page} in lib/route-table.ts`);
  const filled = path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Route ${page} needs :${name}`);
    return encodeURIComponent(value);
  });
  const q = Object.entries(query)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');
  return q ? `${filled}?${q}` : filled;
}

/** Which report a link opens: a prpo answer record, a run, or (prpt) a film's latest run. */
export type ReportLink =
  | { recordId: string }
  | { runId: string }
  | { filmId: string }
  | Record<string, never>;

/** One builder per route row (the row's screen names it; the area picks the row). */
export const paths = {
  home: (area: Area) => fill(`${area}/home`),
  standby: (area: Area) => fill(`${area}/standby`),
  intro: (area: Area) => fill(`${area}/intro`),
  login: (area: Area, redirect?: string) =>
    fill(`${area}/login`, {}, redirect === undefined ? {} : { redirect }),
  movies: (area: Area) => fill(`${area}/movies`),
  cinema: (area: Area, filmId: string) => fill(`${area}/cinema`, { id: filmId }),
  answer: (area: Area, filmId: string) => fill(`${area}/answer`, { id: filmId }),
  /** The result page; with a film, that film's result (else the latest answered). */
  result: (area: Area, filmId?: string) => fill(`${area}/result`, {}, filmId === undefined ? {} : { filmId }),
  dub: (filmId: string) => fill('prpt/dub', { id: filmId }),
  soundSuggest: (filmId: string) => fill('prpt/sound-suggest', { id: filmId }),
  /**
   * A report. prpo's row names the record in its path (`/prpo/report/:id`; `?by=run` when the id is a
   * run's); prpt's row takes the run or film as a query, and with neither shows the latest training.
   */
  report: (area: Area, which: ReportLink = {}): string => {
    const path = PATHS.get(`${area}/report`) ?? '';
    if (path.includes(':id')) {
      if ('runId' in which) return fill(`${area}/report`, { id: which.runId }, { by: 'run' });
      if ('recordId' in which) return fill(`${area}/report`, { id: which.recordId });
      throw new Error(`Route ${area}/report needs a record or a run`);
    }
    return fill(`${area}/report`, {}, which);
  },
} as const;

/** The report of one training run. */
export const runReportPath = (area: Area, runId: string) => paths.report(area, { runId });

/** The area of a path: `prpt` when the path contains `prpt`, otherwise `prpo` (docs/api.md, "Routes"). */
export function areaOf(pathname: string): Area {
  return pathname.includes('prpt') ? 'prpt' : 'prpo';
}

/** The home of the area a path is in (`/prpt`, `/prpo`). */
export function partPrefix(pathname: string): string {
  return paths.home(areaOf(pathname));
}

/** `{area}/login?redirect=<path+search>`: where an unauthenticated or expired visit goes. */
export function loginPathFor(pathWithSearch: string): string {
  return paths.login(areaOf(pathWithSearch.split('?')[0]), pathWithSearch);
}

const LOGIN_PATHS: ReadonlySet<string> = new Set(
  ROUTES.filter((r) => r.screen === 'login').map((r) => r.path),
);

export function isLoginPath(pathname: string): boolean {
  return LOGIN_PATHS.has(pathname.replace(/(.)\/$/, '$1'));
}

/**
 * Where to go after login: the `redirect` parameter when it is a path on this site, else the area's home.
 * Only `/x` paths are accepted (never `//host` or `https:`), so the parameter cannot send a learner away.
 */
export function afterLoginPath(redirect: string | null, pathname: string): string {
  if (redirect?.startsWith('/') && !redirect.startsWith('//') && !redirect.startsWith('/\\')) {
    if (!isLoginPath(redirect.split('?')[0])) return redirect;
  }
  return partPrefix(pathname);
}

/** The area whose layout a screen is rendered in (set by the area layout for its routes). */
export const AreaContext = createContext<Area | null>(null);

/** The training part a screen belongs to: its area, which for today's areas is a part of the contract. */
export function usePart(): Part {
  const area = useContext(AreaContext);
  if (!area) throw new Error('usePart: this screen is not inside an area layout');
  return area;
}
