import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLang } from '../../../src/app/i18n';
import type { SpeechScore } from '../../../src/api/contract';
import { parseSpeechScore } from '../../../src/api/contract/parse-score';
import { resetLineStates } from '../../../src/app/stores/uploads/line-state';
import { clearScores, recordAttempt } from '../../../src/app/stores/takes/sub-titles-scores';
import { figures, probabilities } from '../fixtures/speech-score';
import { dubLine, renderDubRow } from './row-fixture';

const line = dubLine({
  id: 'detail-1',
  speaker: 'Anna',
  targetEmotion: 'anger',
  referenceAudio: '/media/ref/detail-1.wav',
});

/** A version 1 result (stored before confidence existed), or version 2 with a clear reading at 90 %. */
function score(
  attempt: number,
  overall: number,
  detected: SpeechScore['emotion']['detected'],
  tip: string,
  version: 1 | 2 = 1,
): SpeechScore {
  const v2 = version === 2 ? { confidence: 0.9, clear: true, targetArousal: 0.8, arousalGap: -0.1 } : {};
  return {
    version,
    takeId: `take-${attempt}`,
    subtitlesId: line.id,
    filmId: 'film',
    attempt,
    overall,
    scores: { emotion: overall, intonation: 70, energy: 60, timing: 80, quality: 90 },
    emotion: {
      detected,
      probabilities,
      arousal: 0.2,
      valence: -0.3,
      target: 'anger',
      targetSource: 'annotated',
      actorProbabilities: probabilities,
      ...v2,
    },
    prosody: { learner: figures, actor: figures },
    contours: {
      t: [0, 0.1, 0.2],
      learnerPitch: [0, 2, null],
      actorPitch: [0, 3, 1],
      learnerLoudness: [-30, -20, -25],
      actorLoudness: [-28, -18, -26],
    },
    quality: { speechDetected: true, tooQuiet: false, clipped: false, snrDb: 30 },
    tips: [{ zh: tip, en: `en ${tip}` }],
    ...(version === 2 ? { deliveryLikeness: true } : {}),
    audioUrl: '/media/takes/u/t.wav',
    createdAt: '2026-11-21T00:00:00.000Z',
  };
}

const renderRow = () => renderDubRow(line);

describe('a scored line’s detail panel', () => {
  beforeEach(() => {
    resetLineStates();
    clearScores();
  });
  afterEach(() => setLang('zh'));

  it('opens on request and shows both attempts side by side: score, heard vs target emotion, tips', () => {
    recordAttempt(line.id, JSON.stringify(score(1, 52, 'neutral', '第一次：语调再起伏大一些')), 'blob:1');
    recordAttempt(line.id, JSON.stringify(score(2, 81, 'anger', '第二次：保持这个力度', 2)), 'blob:2');
    renderRow();
    expect(screen.queryByTestId('line-score-detail')).not.toBeInTheDocument();

    const toggle = screen.getByRole('button', { name: '查看详情' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle);
    expect(screen.getByRole('button', { name: '收起详情' })).toHaveAttribute('aria-expanded', 'true');

    const first = screen.getByRole('region', { name: '第一次' });
    const second = screen.getByRole('region', { name: '第二次' });
    expect(within(first).getByRole('img', { name: '第一次 综合 52' })).toBeInTheDocument();
    expect(within(second).getByRole('img', { name: '第二次 综合 81' })).toBeInTheDocument();
    // A version 1 result has no calibrated confidence: its heard emotion is not named.
    expect(within(first).getByText(/听不出明显的情绪/)).toBeInTheDocument();
    expect(within(first).queryByText('平静')).not.toBeInTheDocument();
    expect(within(second).getByText('愤怒 90%')).toBeInTheDocument(); // heard anger, clearly
    expect(within(second).getByText('愤怒')).toBeInTheDocument(); // target anger
    expect(screen.getByText(/衡量的是你和演员说法的相似程度/)).toBeInTheDocument();
    expect(within(first).getByText('第一次：语调再起伏大一些')).toBeInTheDocument();
    expect(within(second).getByText('第二次：保持这个力度')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: '收起详情' }));
    expect(screen.queryByTestId('line-score-detail')).not.toBeInTheDocument();
  });

  it('words a take\'s facts in the chosen language, with the raw figures behind "see the data"', async () => {
    const facts = {
      ...score(1, 40, 'neutral', 'x', 2),
      tips: undefined,
      statements: [
        { id: 'take.pace.faster', values: { learnerSeconds: 1.7, actorSeconds: 2.4 }, severity: 0.1 },
        { id: 'take.pitch.narrower', values: { learner: 6, actor: 9.5 }, severity: 0.05 },
      ],
      prosody: {
        learner: { ...score(1, 40, 'neutral', 'x').prosody.learner, pitchRangeSemitones: 6 },
        actor: { ...score(1, 40, 'neutral', 'x').prosody.learner, pitchRangeSemitones: 9.5 },
      },
    };
    recordAttempt(line.id, JSON.stringify(facts), 'blob:1');
    renderRow();
    fireEvent.click(screen.getByRole('button', { name: '查看详情' }));
    const first = screen.getByRole('region', { name: '第一次' });
    expect(
      within(first).getByText('你读得比演员快：你用了 1.7 秒，演员 2.4 秒。放慢一些，给重要的词留出时间。'),
    ).toBeInTheDocument();
    // The data table holds the raw figures, collapsed; the pitch range it shows is the one the statement quotes.
    const data = within(first).getByTestId('take-data');
    expect(data).not.toHaveAttribute('open');
    expect(within(data).getByText('查看数据表')).toBeInTheDocument();
    expect(
      within(data).getByRole('row', { name: /音高范围（半音，从最低音到最高音） 6\.0 9\.5/ }),
    ).toBeInTheDocument();
    await setLang('en');
    expect(
      await within(first).findByText(
        'You read faster than the actor: you took 1.7 s, the actor 2.4 s. Slow down and give the key words room.',
      ),
    ).toBeInTheDocument();
    expect(within(first).queryByText(/[\u4e00-\u9fff]/)).toBeNull();
  });

  it("a take read cold says so; one read against the learner's voice (warm-up or takes) does not", () => {
    const v3 = (voiceTakes: number | undefined) => {
      const base = score(1, 60, 'neutral', 'x', 2);
      return { ...base, version: 3, emotion: { ...base.emotion, voiceTakes } };
    };
    recordAttempt(line.id, JSON.stringify(v3(0)), 'blob:1');
    renderRow();
    fireEvent.click(screen.getByRole('button', { name: '查看详情' }));
    expect(screen.getByText(/^还没有听过你平时的声音/)).toBeInTheDocument();
    cleanup();
    clearScores();
    recordAttempt(line.id, JSON.stringify(v3(1)), 'blob:2');
    renderRow();
    fireEvent.click(screen.getByRole('button', { name: '查看详情' }));
    expect(screen.getByTestId('line-score-detail')).toBeInTheDocument();
    expect(screen.queryByText(/还没有听过你平时的声音/)).toBeNull();
  });

  it('says beside the emotion reading what the energy was compared with, in the chosen language', () => {
    const v3 = (voiceTakes: number | undefined) => {
      const base = score(1, 60, 'neutral', 'x', 2);
      return { ...base, version: 3, emotion: { ...base.emotion, voiceTakes } };
    };
    const against = (voiceTakes: number | undefined) => {
      cleanup();
      clearScores();
      recordAttempt(line.id, JSON.stringify(v3(voiceTakes)), 'blob:1');
      renderRow();
      fireEvent.click(screen.getByRole('button', { name: /^(查看详情|Details)$/ }));
      return screen.queryByTestId('emotion-against')?.textContent ?? null;
    };
    expect(against(0)).toBe('和一般人的声音相比');
    expect(against(1)).toBe('和你自己的声音相比');
    expect(against(12)).toBe('和你自己的声音相比');
    // A result from before the reading was recorded says nothing it cannot know.
    expect(against(undefined)).toBeNull();
    setLang('en');
    expect(against(0)).toBe('Compared with typical voices');
    expect(against(3)).toBe('Compared with your own voice');
  });

  it('a take with no speech says so on the row and asks for a retake, not "scored 0"', () => {
    const silent = {
      ...score(1, 0, 'neutral', 'x', 2),
      quality: { speechDetected: false, tooQuiet: true, clipped: false, snrDb: null },
      tips: undefined,
      statements: [{ id: 'take.noSpeech', severity: 1 }],
    };
    recordAttempt(line.id, JSON.stringify(silent), 'blob:1');
    renderRow();
    const row = screen.getByTestId(`line-${line.id}`);
    expect(within(row).getByRole('status')).toHaveTextContent('没有听到说话，请重录');
    expect(within(row).queryByText('已评分')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '查看详情' }));
    expect(within(row).queryByText(/听不出明显的情绪/)).toBeNull();
    expect(within(row).getByText(/^没有听到说话，请重录：/)).toBeInTheDocument();
    // Nothing was read from it: no 0 badge, no sub-scores, no pitch range, no data table.
    const panel = screen.getByTestId('line-score-detail');
    expect(within(panel).queryByRole('img', { name: /综合/ })).toBeNull();
    expect(within(panel).queryByText(/情感 0/)).toBeNull();
    expect(within(panel).queryByText(/音高范围/)).toBeNull();
    expect(within(panel).queryByText('查看数据表')).toBeNull();
  });

  it('says "no clear emotion heard" once, without a "Heard" caption repeating it (English)', async () => {
    await setLang('en');
    recordAttempt(line.id, JSON.stringify(score(1, 52, 'neutral', 'x')), 'blob:1');
    renderRow();
    fireEvent.click(screen.getByRole('button', { name: 'Details' }));
    const first = screen.getByRole('region', { name: 'First take' });
    expect(within(first).getByText('no clear emotion heard')).toBeInTheDocument();
    expect(first.textContent).not.toMatch(/Heard no clear emotion/);
  });

  it("names an annotated line's emotion as the target, never the class the model hears in the actor's take", () => {
    const annotated = score(1, 40, 'neutral', 'x', 2);
    const actor = {
      ...annotated,
      emotion: { ...annotated.emotion, target: 'boredom', targetSource: 'actor' },
    };
    recordAttempt(line.id, JSON.stringify(actor), 'blob:1');
    renderRow();
    fireEvent.click(screen.getByRole('button', { name: '查看详情' }));
    const panel = screen.getByTestId('line-score-detail');
    expect(within(panel).queryByText('目标')).toBeNull();
    expect(within(panel).queryByText('厌倦')).toBeNull();
    cleanup();
    clearScores();
    recordAttempt(line.id, JSON.stringify(annotated), 'blob:2');
    renderRow();
    fireEvent.click(screen.getByRole('button', { name: '查看详情' }));
    expect(within(screen.getByTestId('line-score-detail')).getByText('目标')).toBeInTheDocument();
  });

  it('offers no details for a line without a readable score', () => {
    recordAttempt(line.id, 'not json', 'blob:1');
    renderRow();
    expect(screen.queryByRole('button', { name: '查看详情' })).not.toBeInTheDocument();
  });

  it('reads version 1, 2 and 3 results, nothing else', () => {
    expect(parseSpeechScore(JSON.stringify(score(1, 50, 'fear', 'x')))?.overall).toBe(50);
    expect(parseSpeechScore(JSON.stringify(score(1, 60, 'fear', 'x', 2)))?.emotion.clear).toBe(true);
    const v3 = { ...score(1, 50, 'fear', 'x'), version: 3 };
    expect(parseSpeechScore(JSON.stringify(v3))?.emotion.clear).toBeUndefined();
    expect(parseSpeechScore(JSON.stringify({ ...v3, version: 4 }))).toBeNull();
    expect(parseSpeechScore('{')).toBeNull();
    expect(parseSpeechScore(undefined)).toBeNull();
  });
});
