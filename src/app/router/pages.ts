import { lazyPage } from './lazy-page';

/**
 * Every page is its own lazy chunk (spec §8 chunk errors, first-screen budget). The import paths must
 * stay literal for the bundler; the keys match `page` in route-table.ts (a unit test checks both agree).
 */
export const PAGES = {
  'prpo/home': lazyPage('prpo/home', () => import('../pages/prpo/home')),
  'prpo/standby': lazyPage('prpo/standby', () => import('../pages/prpo/standby')),
  'prpo/intro': lazyPage('prpo/intro', () => import('../pages/prpo/intro')),
  'prpo/login': lazyPage('prpo/login', () => import('../pages/prpo/login')),
  'prpo/movies': lazyPage('prpo/movies', () => import('../pages/prpo/movies')),
  'prpo/cinema': lazyPage('prpo/cinema', () => import('../pages/prpo/cinema')),
  'prpo/answer': lazyPage('prpo/answer', () => import('../pages/prpo/answer')),
  'prpo/result': lazyPage('prpo/result', () => import('../pages/prpo/result')),
  'prpo/report': lazyPage('prpo/report', () => import('../pages/prpo/report')),
  'prpt/home': lazyPage('prpt/home', () => import('../pages/prpt/home')),
  'prpt/standby': lazyPage('prpt/standby', () => import('../pages/prpt/standby')),
  'prpt/intro': lazyPage('prpt/intro', () => import('../pages/prpt/intro')),
  'prpt/login': lazyPage('prpt/login', () => import('../pages/prpt/login')),
  'prpt/movies': lazyPage('prpt/movies', () => import('../pages/prpt/movies')),
  'prpt/cinema': lazyPage('prpt/cinema', () => import('../pages/prpt/cinema')),
  'prpt/answer': lazyPage('prpt/answer', () => import('../pages/prpt/answer')),
  'prpt/result': lazyPage('prpt/result', () => import('../pages/prpt/result')),
  'prpt/dub': lazyPage('prpt/dub', () => import('../pages/prpt/dub')),
  'prpt/sound-suggest': lazyPage('prpt/sound-suggest', () => import('../pages/prpt/sound-suggest')),
  'prpt/report': lazyPage('prpt/report', () => import('../pages/prpt/report')),
  'not-found': lazyPage('not-found', () => import('../pages/not-found')),
} as const;

export type PageName = keyof typeof PAGES;
