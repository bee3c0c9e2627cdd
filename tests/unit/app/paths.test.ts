import { describe, expect, test } from 'vitest';
import { afterLoginPath, loginPathFor, partPrefix, paths } from '../../../src/app/lib/paths';
import { AREAS, ROUTES } from '../../../src/app/lib/route-table';

describe('{prefix} is /prpt when the path contains prpt, otherwise /prpo', () => {
  test.each([
    ['/prpt', '/prpt'],
    ['/prpt/dub/7', '/prpt'],
    ['/prpt/soundSuggest/7', '/prpt'],
    ['/prpo/movies', '/prpo'],
    ['/prpo/report/3', '/prpo'],
    ['/', '/prpo'],
    ['/somewhere/else', '/prpo'],
    ['/x/prpt-like', '/prpt'],
  ])('%s → %s', (path, prefix) => {
    expect(partPrefix(path)).toBe(prefix);
  });

  test('login path carries the page (with its query) to return to', () => {
    expect(loginPathFor('/prpt/dub/7?line=3')).toBe('/prpt/login?redirect=%2Fprpt%2Fdub%2F7%3Fline%3D3');
    expect(loginPathFor('/prpo/movies')).toBe('/prpo/login?redirect=%2Fprpo%2Fmovies');
  });
});

describe('after login', () => {
  test('returns to the requested page', () => {
    expect(afterLoginPath('/prpt/dub/7?line=3', '/prpt/login')).toBe('/prpt/dub/7?line=3');
  });
  test.each([null, '', 'https://evil.example/', '//evil.example/x', '/\\evil.example', '/prpo/login'])(
    'falls back to the part home for redirect=%j',
    (redirect) => {
      expect(afterLoginPath(redirect, '/prpo/login')).toBe('/prpo');
    },
  );
});

describe('links come from the route table (lib/paths.ts)', () => {
  test('each builder fills its row, and every row has one', () => {
    const built = [
      ...AREAS.flatMap((a) => [
        paths.home(a),
        paths.standby(a),
        paths.intro(a),
        paths.login(a),
        paths.movies(a),
        paths.cinema(a, '7'),
        paths.answer(a, '7'),
        paths.result(a),
      ]),
      paths.dub('7'),
      paths.soundSuggest('7'),
      paths.report('prpo', { recordId: '7' }),
      paths.report('prpt'),
    ];
    const concrete = ROUTES.map((r) => r.path.replace(':id', '7'));
    expect(built.sort()).toEqual([...concrete].sort());
  });

  test('report links name a record, a run or a film the way each area reads them', () => {
    expect(paths.report('prpo', { recordId: 'r 1' })).toBe('/prpo/report/r%201');
    expect(paths.report('prpo', { runId: 'run-1' })).toBe('/prpo/report/run-1?by=run');
    expect(paths.report('prpt', { runId: 'run-1' })).toBe('/prpt/report?runId=run-1');
    expect(paths.report('prpt', { filmId: 'f&1' })).toBe('/prpt/report?filmId=f%261');
    expect(paths.report('prpt')).toBe('/prpt/report');
    expect(() => paths.report('prpo')).toThrow('needs a record or a run');
  });
});
