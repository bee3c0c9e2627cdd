import { describe, expect, test } from 'vitest';
import { afterLoginPath, loginPathFor, partPrefix } from '../../../src/app/lib/paths';

describe('{prefix} is /prpt when the path contains prpt, otherwise /prpo (spec §2)', () => {
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
