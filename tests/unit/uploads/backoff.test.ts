import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors';
import { backoffMs, classifyUploadError } from '../../../src/app/stores/uploads/backoff';

describe('backoffMs', () => {
  it('doubles from 1 s and stops at 60 s, with ±20 % jitter', () => {
    expect([1, 2, 3, 4, 7, 8, 30].map((n) => backoffMs(n, () => 0.5))).toEqual([
      1000, 2000, 4000, 8000, 60000, 60000, 60000,
    ]);
    expect(backoffMs(1, () => 0)).toBe(800);
    expect(backoffMs(1, () => 1)).toBe(1200);
  });
});

describe('classifyUploadError', () => {
  const err = (code: number, reason: ApiError['reason'], status = 200) =>
    new ApiError({ code, msg: 'x', reason, status });
  it.each([
    ['no response', err(0, 'network', 0), 'retry'],
    ['unparseable 502 page', err(502, 'unparseable', 502), 'retry'],
    ['load shedding', err(503, 'server', 503), 'retry'],
    ['rate limited', err(429, 'server', 429), 'retry'],
    ['session expired', err(1002, 'server'), 'session'],
    ['bad take', err(400, 'server', 400), 'reject'],
    ['too large', err(413, 'server', 413), 'reject'],
    ['a plain Error', new Error('boom'), 'retry'],
  ])('%s → %s', (_name, e, verdict) => {
    expect(classifyUploadError(e)).toBe(verdict);
  });
});
