import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { speechScore } from '../fixtures/speech-score';

type ScoresModule = typeof import('../../../src/app/stores/takes/sub-titles-scores');
type SuggestModule = typeof import('../../../src/app/screens/sound-suggest/sound-suggest-state');

/** A fresh copy of the stores, as after a page reload (module state rebuilt from sessionStorage). */
async function freshStores(): Promise<{ scores: ScoresModule; suggest: SuggestModule }> {
  vi.resetModules();
  return {
    scores: await import('../../../src/app/stores/takes/sub-titles-scores'),
    suggest: await import('../../../src/app/screens/sound-suggest/sound-suggest-state'),
  };
}

const json = (overall: number, audioUrl = '/media/takes/t.wav') =>
  JSON.stringify(speechScore({ overall, audioUrl }));

let revoked: string[];
beforeEach(() => {
  revoked = [];
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation((u: string) => {
    revoked.push(u);
  });
});
afterEach(() => vi.restoreAllMocks());

describe('attempt bookkeeping', () => {
  test('first recording creates the first-attempt fields; a repeat adds the second', async () => {
    const { scores } = await freshStores();
    expect(scores.recordAttempt('s1', json(60), 'blob:a1')).toBe(1);
    expect(scores.subTitlesScores.value.s1).toEqual({
      subtitlesId: 's1',
      firstUserAudioJson: json(60),
      firstSource: 'blob:a1',
    });
    expect(scores.recordAttempt('s1', json(75), 'blob:a2')).toBe(2);
    expect(scores.subTitlesScores.value.s1).toMatchObject({
      firstUserAudioJson: json(60),
      firstSource: 'blob:a1',
      secondUserAudioJson: json(75),
      secondSource: 'blob:a2',
    });
  });

  test('a third take replaces the second and releases its object URL; the first is kept', async () => {
    const { scores } = await freshStores();
    scores.recordAttempt('s1', json(60), 'blob:a1');
    scores.recordAttempt('s1', json(70), 'blob:a2');
    expect(scores.recordAttempt('s1', json(80), 'blob:a3')).toBe(2);
    expect(scores.subTitlesScores.value.s1).toMatchObject({
      firstSource: 'blob:a1',
      secondSource: 'blob:a3',
    });
    expect(revoked).toEqual(['blob:a2']);
  });

  test('lines are independent', async () => {
    const { scores } = await freshStores();
    scores.recordAttempt('s1', json(60), 'blob:a1');
    expect(scores.nextAttempt('s2')).toBe(1);
    expect(scores.recordAttempt('s2', json(50), 'blob:b1')).toBe(1);
    expect(Object.keys(scores.subTitlesScores.value).sort()).toEqual(['s1', 's2']);
  });

  test('clearScores empties the scores on request and in storage', async () => {
    const { scores } = await freshStores();
    scores.recordAttempt('s1', json(60), 'blob:a1');
    scores.clearScores();
    expect(scores.subTitlesScores.value).toEqual({});
    expect(revoked).toEqual(['blob:a1']);
    const again = await freshStores();
    expect(again.scores.subTitlesScores.value).toEqual({});
  });
});

describe('sessionStorage survival across a reload', () => {
  test('scores survive a store re-init; dead blob: sources are dropped and marked', async () => {
    const before = await freshStores();
    before.scores.recordAttempt('s1', json(60, '/media/takes/first.wav'), 'blob:http://x/1');
    before.scores.recordAttempt('s1', json(70, '/media/takes/second.wav'), 'blob:http://x/2');
    window.dispatchEvent(new Event('pagehide')); // the reload: the page goes away

    const after = await freshStores();
    const entry = after.scores.subTitlesScores.value.s1;
    expect(entry.firstUserAudioJson).toBe(json(60, '/media/takes/first.wav'));
    expect(entry.secondUserAudioJson).toBe(json(70, '/media/takes/second.wav'));
    expect(entry).toMatchObject({
      firstSource: '',
      firstSourceLost: true,
      secondSource: '',
      secondSourceLost: true,
    });
    expect(after.scores.playableSource(entry, 1)).toBe('/producer/media/takes/first.wav');
    expect(after.scores.playableSource(entry, 2)).toBe('/producer/media/takes/second.wav');
    // and a repeat after the reload still counts as the second attempt
    expect(after.scores.recordAttempt('s1', json(90), 'blob:http://x/3')).toBe(2);
  });

  test('a new score writes its own line only (one key, one entry); every line survives a reload', async () => {
    window.dispatchEvent(new Event('pagehide')); // earlier page loads write what they still hold
    sessionStorage.clear();
    const before = await freshStores();
    const big = (overall: number) => JSON.stringify({ overall, contours: { t: Array(500).fill(0.01) } });
    for (let i = 0; i < 20; i++) before.scores.recordAttempt(`s${i}`, big(i), `blob:http://x/${i}`);
    window.dispatchEvent(new Event('pagehide'));
    const json20 = big(20);
    const setItem = vi.spyOn(sessionStorage, 'setItem');
    const stringify = vi.spyOn(JSON, 'stringify');
    before.scores.recordAttempt('s20', json20, 'blob:http://x/20');
    // Not in the caller's task: nothing is written yet.
    expect(setItem).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(setItem).toHaveBeenCalled());
    const writes = setItem.mock.calls.map(([key, value]) => ({ key, chars: String(value).length }));
    const serialisedObjects = stringify.mock.calls
      .map(([value]) => value)
      .filter((value): value is object => typeof value === 'object' && value !== null);
    setItem.mockRestore();
    stringify.mockRestore();
    // Exactly one write, of the new line's own key, holding exactly its entry.
    expect(writes.map((w) => w.key)).toEqual([before.scores.scoreEntryKey('s20')]);
    expect(serialisedObjects).toEqual([before.scores.subTitlesScores.value.s20]);
    const entryChars = JSON.stringify(before.scores.subTitlesScores.value.s20).length;
    expect(writes[0].chars).toBe(entryChars);
    // The 20 other lines (20× as much text) were not rewritten.
    const everything = JSON.stringify(before.scores.subTitlesScores.value).length;
    expect(writes[0].chars * 15).toBeLessThan(everything);

    const after = await freshStores();
    const restored = after.scores.subTitlesScores.value;
    expect(Object.keys(restored)).toHaveLength(21);
    expect(JSON.parse(restored.s20.firstUserAudioJson).overall).toBe(20);
    expect(restored.s7).toMatchObject({ firstUserAudioJson: big(7), firstSource: '', firstSourceLost: true });
    // after the reload, a new score keeps the restored entries in storage
    after.scores.recordAttempt('s21', big(21), 'blob:http://x/21');
    window.dispatchEvent(new Event('pagehide'));
    expect(Object.keys((await freshStores()).scores.subTitlesScores.value)).toHaveLength(22);
  });

  test("a run replaced on screen removes the old run's lines from storage, and clearScores removes all", async () => {
    sessionStorage.clear();
    const { scores } = await freshStores();
    scores.recordAttempt(
      's1',
      JSON.stringify(speechScore({ subtitlesId: 's1', overall: 50, filmId: 'f1' })),
      'blob:a',
    );
    scores.recordAttempt(
      's2',
      JSON.stringify(speechScore({ subtitlesId: 's2', overall: 60, filmId: 'f2' })),
      'blob:b',
    );
    window.dispatchEvent(new Event('pagehide'));
    scores.adoptRunScores('f1', 'run-new', []);
    expect(sessionStorage.getItem(scores.scoreEntryKey('s1'))).toBeNull();
    expect(sessionStorage.getItem(scores.scoreEntryKey('s2'))).not.toBeNull();
    scores.clearScores();
    expect(sessionStorage.getItem(scores.scoreEntryKey('s2'))).toBeNull();
  });

  test('the sound suggestion survives a re-init, with audioInterpret split into non-empty lines', async () => {
    const before = await freshStores();
    before.suggest.setSoundSuggest({
      filmId: 'f1',
      lang: 'zh',
      audioInterpret: '语速稍快。\n\n情绪到位。\r\n 注意停顿。 \n',
      figures: {
        scoredLines: 3,
        totalLines: 4,
        average: 70,
        improvement: 5,
        pitchRangeSemitones: 8,
        syllablesPerSecond: 4.2,
        loudnessRangeDb: 12,
        emotionMatchRate: 0.6,
      },
    });
    const after = await freshStores();
    expect(after.suggest.soundSuggest.value?.lines).toEqual(['语速稍快。', '情绪到位。', '注意停顿。']);
    expect(after.suggest.soundSuggest.value?.audioInterpret).toContain('情绪到位');
  });
});

describe('the run each film entry belongs to (docs/api.md, Runs)', () => {
  const take = (filmId: string, subtitlesId: string, overall: number) =>
    JSON.stringify(
      speechScore({ filmId, subtitlesId, overall, audioUrl: `/media/takes/${subtitlesId}.wav` }),
    );
  const line = (subtitlesId: string, first: number, second: number | null = null) =>
    ({
      subtitlesId,
      first: JSON.parse(take('f1', subtitlesId, first)),
      second: second === null ? null : JSON.parse(take('f1', subtitlesId, second)),
      takes: second === null ? 1 : 2,
    }) as never;

  test('the same run adds what another session scored and keeps this device takes; a new run clears the film only', async () => {
    const { scores } = await freshStores();
    scores.adoptRunScores('f1', 'run-1', []);
    scores.recordAttempt('f1-1', take('f1', 'f1-1', 60), 'blob:a');
    scores.recordAttempt('f2-1', take('f2', 'f2-1', 70), 'blob:other-film');

    scores.adoptRunScores('f1', 'run-1', [line('f1-1', 10), line('f1-2', 43, 51)]);
    expect(JSON.parse(scores.subTitlesScores.value['f1-1'].firstUserAudioJson).overall).toBe(60);
    expect(scores.subTitlesScores.value['f1-1'].firstSource).toBe('blob:a');
    const restored = scores.subTitlesScores.value['f1-2'];
    expect(JSON.parse(restored.secondUserAudioJson ?? '').overall).toBe(51);
    // No local take: the server copy plays.
    expect(scores.playableSource(restored, 2)).toContain('/media/takes/f1-2.wav');
    expect(scores.nextAttempt('f1-2')).toBe(2);

    // Answers saved again start run 2: this film's entries go (their recordings released), others stay.
    scores.adoptRunScores('f1', 'run-2', []);
    expect(Object.keys(scores.subTitlesScores.value)).toEqual(['f2-1']);
    expect(revoked).toContain('blob:a');
    expect(scores.scoresRunOf('f1')).toBe('run-2');

    // A reload keeps both the entries and which run they belong to.
    const again = (await freshStores()).scores;
    expect(Object.keys(again.subTitlesScores.value)).toEqual(['f2-1']);
    expect(again.scoresRunOf('f1')).toBe('run-2');
    again.clearScores();
    expect(again.scoresRunOf('f1')).toBeUndefined();
  });
});
