import { describe, expect, test } from 'vitest';
import type { FilmDetail, Subtitle } from '../../../src/api/contract';
import { SubtitleTimeError, withSubtitleSeconds } from '../../../src/app/lib/movie-detail';

const line = (id: string, startTime: string, endTime: string): Subtitle => ({
  id,
  index: 0,
  startTime,
  endTime,
  startMs: 0,
  endMs: 0,
  text: '',
  translation: { zh: '', en: '' },
  speaker: '',
  targetEmotion: null,
  referenceAudio: '',
});

const detail = (subtitlesList: Subtitle[]) => ({ id: 'f1', subtitlesList }) as unknown as FilmDetail;

describe('subtitle windows: startTime_m / endTime_m = 60 × mm + ss', () => {
  test.each([
    ['00:00', 0],
    ['00:07', 7],
    ['01:02', 62],
    ['12:59', 779],
    ['01:02.5', 62.5],
    ['00:03.250', 3.25],
  ])('%s → %d s', (text, seconds) => {
    const [l] = withSubtitleSeconds(detail([line('s1', text, text)])).subtitlesList;
    expect(l.startTime_m).toBe(seconds);
    expect(l.endTime_m).toBe(seconds);
  });

  test('keeps every other field of the line', () => {
    const [l] = withSubtitleSeconds(detail([line('s1', '00:01', '00:04')])).subtitlesList;
    expect(l).toMatchObject({ id: 's1', startTime: '00:01', endTime: '00:04', startTime_m: 1, endTime_m: 4 });
  });

  test.each(['1:2:3:4', 'ab:cd', '01:75', '', '01-02'])('rejects %j with an error naming the line', (bad) => {
    const run = () => withSubtitleSeconds(detail([line('ok', '00:01', '00:02'), line('s9', '00:03', bad)]));
    expect(run).toThrow(SubtitleTimeError);
    expect(run).toThrow(/Subtitle s9: endTime/);
  });
});

describe('originalLanguage (text track and shown lines)', () => {
  test('Chinese, German, or undetermined; never a guessed English', async () => {
    const { originalLanguage } = await import('../../../src/app/lib/movie-detail');
    expect(originalLanguage([{ text: '你好。' }])).toBe('zh');
    expect(originalLanguage([{ text: 'Der Lappen liegt auf dem Eisschrank.' }])).toBe('de');
    expect(originalLanguage([{ text: 'Schön.' }])).toBe('de');
    expect(originalLanguage([{ text: 'Bonjour tout le monde.' }])).toBe('und');
    expect(originalLanguage([])).toBe('und');
  });
});
