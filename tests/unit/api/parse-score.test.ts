import { describe, expect, test } from 'vitest';
import { speechScore as schema } from '../../../src/api/contract';
import { SPEECH_SCORE_VERSIONS } from '../../../src/api/contract/constants';
import { parseSpeechScore } from '../../../src/api/contract/parse-score';
import { speechScore } from '../fixtures/speech-score';

describe('a stored take result is read in one place (contract/parse-score.ts)', () => {
  test('a result the contract schema accepts is read as it is, in every version this build reads', () => {
    for (const version of SPEECH_SCORE_VERSIONS) {
      const score = speechScore({ version, overall: 64 });
      expect(schema.safeParse(score).success).toBe(true);
      expect(parseSpeechScore(JSON.stringify(score))).toEqual(score);
    }
  });

  test.each([
    ['no text', undefined],
    ['not JSON', '{'],
    ['a bare number', '83'],
    ['an unknown version', JSON.stringify(speechScore({ version: 99 as never }))],
    ['a fragment', JSON.stringify({ overall: 83 })],
    ['no audio URL', JSON.stringify({ ...speechScore(), audioUrl: undefined })],
    ['no contours', JSON.stringify({ ...speechScore(), contours: null })],
  ])('%s is no result', (_name, text) => {
    expect(parseSpeechScore(text)).toBeNull();
  });
});
