import type { Localized, SubScores } from '../../src/api/contract';
import { type Fact, fact, wordBoth } from '../../src/i18n';

const AREAS: Array<keyof SubScores> = ['emotion', 'intonation', 'energy', 'timing', 'quality'];

export interface FeedbackInput {
  answerPercent: number;
  maxScore: number;
  /** Every answered question in order; `correct` null for open questions (not scored). */
  items: Array<{ index: number; prompt: Localized; correct: boolean | null }>;
  /** Mean of each sub-score over the scored lines (src/audio/scoring/aggregate.ts); null: none. */
  subScores: SubScores | null;
  improvement: number | null;
  emotionMatchRate: number | null;
  /** The answer percent of the learner's previous answered run of this film, if any. */
  previousAnswerPercent: number | null;
}

/** The run's sub-score means as pairs (none without a scored line). */
function subScoreMeans(means: SubScores | null): Array<[keyof SubScores, number]> {
  if (!means) return [];
  return AREAS.map((k) => [k, means[k]]);
}

/** Strengths and the one thing to practise, as facts computed from the learner's own figures. */
export function feedbackFacts(input: FeedbackInput): { strengths: Fact[]; practice: Fact | null } {
  const strengths: Fact[] = [];
  const scored = input.items.filter((q) => q.correct !== null);
  const right = scored.filter((q) => q.correct);
  if (input.maxScore > 0 && input.answerPercent >= 80) {
    strengths.push(fact('report.answers.high', { percent: input.answerPercent }));
  } else if (right.length > 0) {
    strengths.push(
      fact('report.answers.some', {
        which: { zh: right.map((q) => q.index).join('、'), en: right.map((q) => q.index).join(', ') },
        right: right.length,
        scored: scored.length,
        prompt: right[0].prompt,
      }),
    );
  }
  if (
    input.maxScore > 0 &&
    input.previousAnswerPercent !== null &&
    input.answerPercent > input.previousAnswerPercent
  ) {
    strengths.push(
      fact('report.answers.gain', {
        gain: input.answerPercent - input.previousAnswerPercent,
        before: input.previousAnswerPercent,
        after: input.answerPercent,
      }),
    );
  }
  const means = subScoreMeans(input.subScores).sort((a, b) => b[1] - a[1]);
  const best = means[0];
  if (best && best[1] >= 60) {
    strengths.push(fact('report.strongest', { area: fact(`area.${best[0]}`), average: Math.round(best[1]) }));
  }
  if (input.improvement !== null && input.improvement > 0) {
    strengths.push(fact('report.secondTakes', { gain: Math.round(input.improvement * 10) / 10 }));
  }
  if (input.emotionMatchRate !== null && input.emotionMatchRate >= 0.6) {
    strengths.push(fact('report.emotionMatch', { percent: Math.round(input.emotionMatchRate * 100) }));
  }

  let practice: Fact | null = null;
  const weakest = means[means.length - 1];
  const wrong = input.items.find((q) => q.correct === false);
  if (weakest) {
    practice = fact('report.practice.area', {
      area: fact(`area.${weakest[0]}`),
      average: Math.round(weakest[1]),
      how: fact(`practice.${weakest[0]}`),
    });
  } else if (wrong) {
    practice = fact('report.practice.question', { index: wrong.index, prompt: wrong.prompt });
  }
  return { strengths, practice };
}

/** The report's strengths and practice, worded in both languages by the shared catalogue. */
export function buildFeedback(input: FeedbackInput): { strengths: Localized[]; practice: Localized | null } {
  const { strengths, practice } = feedbackFacts(input);
  return { strengths: strengths.map(wordBoth), practice: practice ? wordBoth(practice) : null };
}
