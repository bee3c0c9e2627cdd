import type { Localized, SubScores } from '../../src/api/contract';

const DIMENSIONS: Record<keyof SubScores, { zh: string; en: string; practice: Localized }> = {
  emotion: {
    zh: '情绪表达',
    en: 'emotional expression',
    practice: {
      zh: '先说出这句台词想表达的情绪，再放大它：让情绪体现在语速、音量和音高上。',
      en: 'Name the feeling of each line first, then let it show in your pace, loudness and pitch.',
    },
  },
  intonation: {
    zh: '语调起伏',
    en: 'intonation',
    practice: {
      zh: '跟着原声哼出句子的旋律，注意重音处的音高变化，再带上台词重说一遍。',
      en: "Hum the actor's melody of the line, mark where the pitch rises and falls, then speak it again.",
    },
  },
  energy: {
    zh: '音量与力度',
    en: 'energy and loudness',
    practice: {
      zh: '加强重读词的音量对比，让轻重更分明，但避免喊破音。',
      en: 'Make stressed words louder than the rest so the contrast is clear, without shouting.',
    },
  },
  timing: {
    zh: '节奏与停顿',
    en: 'timing and pauses',
    practice: {
      zh: '看着字幕时间轴开口，按原声的停顿位置断句，保持与画面同步。',
      en: 'Start on the subtitle cue and pause where the actor pauses, to stay in sync with the picture.',
    },
  },
  quality: {
    zh: '录音质量',
    en: 'recording quality',
    practice: {
      zh: '在安静的环境录音，嘴离麦克风约一拳距离，避免声音过小或爆音。',
      en: 'Record somewhere quiet, about a fist away from the microphone, neither too soft nor clipping.',
    },
  },
};

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
  return (Object.keys(DIMENSIONS) as Array<keyof SubScores>).map((k) => [k, means[k]]);
}

/** Strengths and the one thing to practise, computed from the learner's own figures (zh + en). */
export function buildFeedback(input: FeedbackInput): { strengths: Localized[]; practice: Localized | null } {
  const strengths: Localized[] = [];
  const scored = input.items.filter((q) => q.correct !== null);
  const right = scored.filter((q) => q.correct);
  if (input.maxScore > 0 && input.answerPercent >= 80) {
    strengths.push({
      zh: `理解题正确率 ${input.answerPercent}%，对剧情把握准确。`,
      en: `You answered ${input.answerPercent}% of the questions correctly: you followed the story well.`,
    });
  } else if (right.length > 0) {
    const which = right.map((q) => q.index).join('、');
    const whichEn = right.map((q) => q.index).join(', ');
    strengths.push({
      zh: `答对了第 ${which} 题（${right.length}/${scored.length} 道客观题），如“${right[0].prompt.zh}”。`,
      en: `You got question${right.length > 1 ? 's' : ''} ${whichEn} right (${right.length} of ${scored.length}), such as "${right[0].prompt.en}".`,
    });
  }
  if (
    input.maxScore > 0 &&
    input.previousAnswerPercent !== null &&
    input.answerPercent > input.previousAnswerPercent
  ) {
    const gain = input.answerPercent - input.previousAnswerPercent;
    strengths.push({
      zh: `答题正确率比上一次提高了 ${gain} 个百分点（${input.previousAnswerPercent}% → ${input.answerPercent}%）。`,
      en: `Your answers improved by ${gain} points since last time (${input.previousAnswerPercent}% → ${input.answerPercent}%).`,
    });
  }
  const means = subScoreMeans(input.subScores).sort((a, b) => b[1] - a[1]);
  const best = means[0];
  if (best && best[1] >= 60) {
    const d = DIMENSIONS[best[0]];
    strengths.push({
      zh: `${d.zh}是你最强的一项（平均 ${Math.round(best[1])} 分）。`,
      en: `Your ${d.en} is your strongest side (average ${Math.round(best[1])}).`,
    });
  }
  if (input.improvement !== null && input.improvement > 0) {
    const v = Math.round(input.improvement * 10) / 10;
    strengths.push({
      zh: `第二次配音比第一次平均提高 ${v} 分。`,
      en: `Your second takes scored ${v} points higher than your first on average.`,
    });
  }
  if (input.emotionMatchRate !== null && input.emotionMatchRate >= 0.6) {
    const pct = Math.round(input.emotionMatchRate * 100);
    strengths.push({
      zh: `${pct}% 的台词情绪与目标一致。`,
      en: `The emotion of ${pct}% of your lines matched the target.`,
    });
  }

  let practice: Localized | null = null;
  const weakest = means[means.length - 1];
  if (weakest) {
    const d = DIMENSIONS[weakest[0]];
    practice = {
      zh: `下一步重点练习${d.zh}（平均 ${Math.round(weakest[1])} 分）：${d.practice.zh}`,
      en: `Practise your ${d.en} next (average ${Math.round(weakest[1])}): ${d.practice.en}`,
    };
  } else if (input.items.some((q) => q.correct === false)) {
    const q = input.items.find((i) => i.correct === false)!;
    practice = {
      zh: `重看影片，再想想第 ${q.index} 题：“${q.prompt.zh}”`,
      en: `Watch the film again and rethink question ${q.index}: "${q.prompt.en}"`,
    };
  }
  return { strengths, practice };
}
