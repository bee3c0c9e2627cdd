import { describe, expect, it } from 'vitest';
import { mmssToSeconds, secondsToMmss, TimeFormatError } from '../../../src/audio/dsp/time';

describe('mmssToSeconds (60 × minutes + seconds)', () => {
  it.each([
    ['00:00', 0],
    ['01:02.5', 62.5],
    ['1:02', 62],
    ['00:59.999', 59.999],
    ['12:34', 754],
    ['120:00', 7200],
    ['01:02,25', 62.25],
    ['01:00:01', 3601],
    [' 00:03.1 ', 3.1],
  ])('%s → %d', (text, seconds) => {
    expect(mmssToSeconds(text)).toBe(seconds);
  });

  it.each(['', '62', '1:2:3:4', '00:60', 'aa:bb', '01:02.', '-01:02', '01:60:00', '01:02.5s'])(
    'rejects %j with an error naming the input and the expected form',
    (text) => {
      expect(() => mmssToSeconds(text)).toThrow(TimeFormatError);
      expect(() => mmssToSeconds(text)).toThrow(/expected mm:ss/);
    },
  );

  it('rejects values that are not text', () => {
    expect(() => mmssToSeconds(62 as unknown as string)).toThrow(TimeFormatError);
  });
});

describe('secondsToMmss', () => {
  it.each([
    [0, '00:00'],
    [62.5, '01:02.500'],
    [754, '12:34'],
    [59.9994, '00:59.999'],
  ])('%d → %s', (seconds, text) => {
    expect(secondsToMmss(seconds)).toBe(text);
  });

  it('round-trips with mmssToSeconds to the millisecond', () => {
    for (const s of [0.001, 1.5, 61.25, 599.999, 3599]) expect(mmssToSeconds(secondsToMmss(s))).toBe(s);
  });

  it('rejects negative and non-finite seconds', () => {
    expect(() => secondsToMmss(-1)).toThrow(TimeFormatError);
    expect(() => secondsToMmss(Number.NaN)).toThrow(TimeFormatError);
  });
});
