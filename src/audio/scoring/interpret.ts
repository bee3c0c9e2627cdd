/**
 * The sound suggestion (get_sounds_interpretation): a learner's scored lines for one film turned
 * into a short, specific reading of their voice, one statement per line of text (pure).
 *
 * Every sentence quotes figures measured on the stored takes: pitch range, melody, loudness range,
 * pace, emotion fit (energy against the target; a category only where it was heard clearly), first →
 * second attempt change, and the one thing to practise next (the weakest
 * sub-score, explained with its own numbers).
 */
import type { Emotion, Localized, SoundSuggestData, SpeechScore, SubScores } from '../../api/contract';
import { aggregateRun, aggregateTake, EMOTION_PASS, hasSpeech } from './aggregate';
import { round } from './contour';
import { AROUSAL_TOLERANCE, EMOTION_LABELS, fmt, pct } from './labels';
import { SOLO } from './subscores';

export interface InterpretLine {
  subtitlesId: string;
  /** Line number as the film shows it (1-based). */
  index: number;
  text: string;
  first: SpeechScore | null;
  second: SpeechScore | null;
  /** The line's annotated emotion, when known (the run figures match against it: aggregate.ts). */
  target?: string | null;
}

export interface Interpretation {
  zh: string[];
  en: string[];
  figures: SoundSuggestData['figures'];
  subScores: SubScores | null;
  pitchDistanceSt: number | null;
  /** Per statement (same order as zh/en): its topic and the figures it quotes (paths into the answer). */
  points: Array<{ topic: Topic; figures: string[] }>;
}

const SUB_SCORES: Array<keyof SubScores> = ['emotion', 'intonation', 'energy', 'timing', 'quality'];

function medianOf(values: Array<number | null | undefined>): number | null {
  const v = values
    .filter((x): x is number => typeof x === 'number' && Number.isFinite(x))
    .sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

function meanOf(values: number[]): number | null {
  return values.length ? values.reduce((s, x) => s + x, 0) / values.length : null;
}

/** The attempt that counts for "how you sound now": the second when there is one. */
function latest(line: InterpretLine): SpeechScore | null {
  return line.second ?? line.first;
}

function rangeLine(takes: SpeechScore[]): Localized | null {
  const learner = medianOf(takes.map((t) => t.prosody.learner.pitchRangeSemitones));
  if (learner === null) return null;
  const actor = medianOf(takes.map((t) => t.prosody.actor?.pitchRangeSemitones));
  if (actor === null) {
    const flat = learner < SOLO.pitchTipSt;
    return {
      zh: `音域：你每句的音高起伏中位数 ${fmt(learner)} 个半音，${flat ? '偏平，情绪不容易听出来' : '有足够的起伏'}。`,
      en: `Range: your pitch moves a median ${fmt(learner)} semitones per line, ${flat ? 'rather flat, so emotion is hard to hear' : 'enough movement to carry emotion'}.`,
    };
  }
  const ratio = learner / Math.max(0.1, actor);
  const verdict =
    ratio < 0.75
      ? { zh: '比演员窄，声音偏平', en: "narrower than the actor's, so you sound flatter" }
      : ratio > 1.33
        ? { zh: '比演员宽，起伏偏夸张', en: "wider than the actor's, a little exaggerated" }
        : { zh: '和演员相当', en: "in line with the actor's" };
  return {
    zh: `音域：你每句的音高起伏中位数 ${fmt(learner)} 个半音，演员 ${fmt(actor)} 个半音，${verdict.zh}。`,
    en: `Range: your pitch moves a median ${fmt(learner)} semitones per line against the actor's ${fmt(actor)}, ${verdict.en}.`,
  };
}

function melodyLine(takes: SpeechScore[], means: SubScores): Localized | null {
  if (takes.length === 0) return null;
  const score = means.intonation;
  const compared = takes.filter((t) => t.comparison);
  const distance = pitchDistance(takes);
  const ends = compared.filter(
    (t) =>
      t.comparison?.learnerEndMoveSt != null &&
      t.comparison.actorEndMoveSt != null &&
      Math.abs(t.comparison.actorEndMoveSt) >= 1.5 &&
      Math.sign(t.comparison.learnerEndMoveSt) !== Math.sign(t.comparison.actorEndMoveSt),
  ).length;
  const withEnds = compared.filter((t) => t.comparison?.actorEndMoveSt != null).length;
  if (distance === null) {
    return {
      zh: `语调：语调分平均 ${Math.round(score)} 分。`,
      en: `Melody: your intonation score averages ${Math.round(score)}.`,
    };
  }
  const endZh = !withEnds
    ? ''
    : ends
      ? `；${withEnds} 句里有 ${ends} 句句尾的升降方向和演员相反`
      : `；${withEnds} 句的句尾升降方向都和演员一致`;
  const endEn = !withEnds
    ? ''
    : ends
      ? `; in ${ends} of ${withEnds} lines your ending goes the other way from the actor's`
      : `; all ${withEnds} line endings rise or fall the way the actor's do`;
  return {
    zh: `语调：对齐原声后音高平均相差 ${fmt(distance)} 个半音，语调分平均 ${Math.round(score)} 分${endZh}。`,
    en: `Melody: after alignment your pitch is a median ${fmt(distance)} semitones from the actor's, intonation score ${Math.round(score)} on average${endEn}.`,
  };
}

function energyLine(takes: SpeechScore[], means: SubScores): Localized | null {
  const learner = medianOf(takes.map((t) => t.prosody.learner.loudnessRangeDb));
  if (learner === null) return null;
  const actor = medianOf(takes.map((t) => t.prosody.actor?.loudnessRangeDb));
  const score = Math.round(means.energy);
  if (actor === null) {
    return {
      zh: `能量：每句音量变化中位数 ${fmt(learner)} dB，能量分平均 ${score} 分。`,
      en: `Energy: your loudness varies a median ${fmt(learner)} dB per line; energy score ${score} on average.`,
    };
  }
  const diff = learner - actor;
  const verdict =
    diff < -3
      ? {
          zh: '轻重对比不如演员鲜明',
          en: 'less contrast between stressed and unstressed words than the actor',
        }
      : diff > 3
        ? { zh: '音量起伏比演员大', en: 'more loudness swing than the actor' }
        : { zh: '轻重对比和演员接近', en: "contrast close to the actor's" };
  return {
    zh: `能量：每句音量变化中位数 ${fmt(learner)} dB，演员 ${fmt(actor)} dB，${verdict.zh}（能量分平均 ${score}）。`,
    en: `Energy: your loudness varies a median ${fmt(learner)} dB per line against the actor's ${fmt(actor)} dB, ${verdict.en} (energy score ${score}).`,
  };
}

function paceLine(takes: SpeechScore[]): Localized | null {
  const rate = medianOf(takes.map((t) => t.prosody.learner.syllablesPerSecond));
  const ratio = medianOf(takes.map((t) => t.comparison?.durationRatio));
  if (rate === null && ratio === null) return null;
  const rateZh = rate === null ? '' : `语速每秒约 ${fmt(rate)} 个音节`;
  const rateEn = rate === null ? '' : `about ${fmt(rate)} syllables per second`;
  if (ratio === null) return { zh: `节奏：${rateZh}。`, en: `Pace: ${rateEn}.` };
  const change = Math.round(Math.abs(ratio - 1) * 100);
  const rel =
    ratio > 1.1
      ? { zh: `比演员慢 ${change}%`, en: `${change}% slower than the actor` }
      : ratio < 0.9
        ? { zh: `比演员快 ${change}%`, en: `${change}% faster than the actor` }
        : { zh: '和演员的节奏基本一致', en: "close to the actor's timing" };
  return {
    zh: `节奏：${rateZh ? `${rateZh}，` : ''}每句${rel.zh}（时长比中位数 ${fmt(ratio, 2)}）。`,
    en: `Pace: ${rateEn ? `${rateEn}, ` : ''}${rel.en} per line (median duration ratio ${fmt(ratio, 2)}).`,
  };
}

/** An emotion sub-score at or above this counts as a line whose emotion came across (aggregate.ts). */
export { EMOTION_PASS };

/**
 * Emotion over the lines with a target: how many came across (emotion score ≥ EMOTION_PASS), which
 * way the energy missed (the arousal gap, which carries across voices), and a category only where
 * the reading was clear enough to name (stored results without `clear` never name one).
 */
function emotionLine(takes: SpeechScore[]): { line: Localized | null; rate: number | null } {
  const targeted = takes.filter((t) => t.emotion.target !== null);
  if (targeted.length === 0) return { line: null, rate: null };
  const passed = targeted.filter((t) => t.scores.emotion >= EMOTION_PASS).length;
  const rate = passed / targeted.length;
  const gaps = targeted
    .map((t) => t.emotion.arousalGap)
    .filter((g): g is number => typeof g === 'number' && Number.isFinite(g));
  const weak = gaps.filter((g) => g < -AROUSAL_TOLERANCE).length;
  const strong = gaps.filter((g) => g > AROUSAL_TOLERANCE).length;
  const near = gaps.length - weak - strong;
  let zh = `情绪：${targeted.length} 句中有 ${passed} 句情绪分达到 ${EMOTION_PASS}（${pct(rate)}）`;
  let en = `Emotion: ${passed} of ${targeted.length} lines reach an emotion score of ${EMOTION_PASS} (${pct(rate)})`;
  if (gaps.length) {
    zh += `；能量与目标相比 ${near} 句接近、${weak} 句偏弱、${strong} 句偏强`;
    en += `; against the target your energy was close in ${near}, too low in ${weak} and too high in ${strong}`;
  }
  // Only clear readings may name a heard emotion.
  const slips = new Map<string, number>();
  for (const t of targeted) {
    if (!t.emotion.clear || t.emotion.detected === t.emotion.target) continue;
    const key = `${t.emotion.target}>${t.emotion.detected}`;
    slips.set(key, (slips.get(key) ?? 0) + 1);
  }
  const top = [...slips.entries()].sort((a, b) => b[1] - a[1])[0];
  if (top) {
    const [target, heard] = top[0].split('>') as [Emotion, Emotion];
    zh += `；清楚听出偏差的：该「${EMOTION_LABELS[target].zh}」的句子听起来像「${EMOTION_LABELS[heard].zh}」（${top[1]} 句）`;
    en += `; a clear slip: lines meant as ${EMOTION_LABELS[target].en} heard as ${EMOTION_LABELS[heard].en} (${top[1]})`;
  }
  return { rate, line: { zh: `${zh}。`, en: `${en}.` } };
}

function improvementLine(lines: InterpretLine[]): { line: Localized | null; improvement: number | null } {
  // Pairs whose both takes have speech: a silent take is not a score (aggregate.ts).
  const pairs = lines.filter(
    (l) => l.first && l.second && hasSpeech(aggregateTake(l.first)) && hasSpeech(aggregateTake(l.second)),
  ) as Array<{
    first: SpeechScore;
    second: SpeechScore;
  }>;
  if (pairs.length === 0) {
    return {
      improvement: null,
      line: {
        zh: '进步：还没有重录的句子；挑一句分数最低的再录一次，对比两次的变化。',
        en: 'Progress: no line has a second attempt yet; re-record your lowest-scoring line and compare.',
      },
    };
  }
  const improvement = pairs.reduce((s, p) => s + (p.second.overall - p.first.overall), 0) / pairs.length;
  const deltas = SUB_SCORES.map((k) => ({
    k,
    d: pairs.reduce((s, p) => s + (p.second.scores[k] - p.first.scores[k]), 0) / pairs.length,
  })).sort((a, b) => b.d - a.d);
  const best = deltas[0];
  const names = SUB_SCORE_NAMES[best.k];
  const sign = improvement >= 0 ? '+' : '−';
  const better = best.d > 0;
  return {
    improvement,
    line: {
      zh: `进步：${pairs.length} 句重录后总分平均 ${sign}${fmt(Math.abs(improvement))} 分${better ? `，提高最多的是${names.zh}（+${fmt(best.d)}）` : '，各项都没有提高，重录前先听一遍原声'}。`,
      en: `Progress: over ${pairs.length} re-recorded line(s) your total moved ${sign}${fmt(Math.abs(improvement))} points${better ? `; ${names.en} improved most (+${fmt(best.d)})` : '; no part improved, so listen to the actor again before re-recording'}.`,
    },
  };
}

const SUB_SCORE_NAMES: Record<keyof SubScores, Localized> = {
  emotion: { zh: '情绪', en: 'emotion' },
  intonation: { zh: '语调贴合', en: "melody likeness to the actor's" },
  energy: { zh: '轻重贴合', en: "stress likeness to the actor's" },
  timing: { zh: '节奏贴合', en: "timing likeness to the actor's" },
  quality: { zh: '录音质量', en: 'recording quality' },
};

/** The weakest sub-score with a concrete exercise built from its figures. */
/** The weakest sub-score: the one the practice statement is about. */
function weakestSubScore(means: SubScores): keyof SubScores {
  return [...SUB_SCORES].sort((a, b) => means[a] - means[b])[0];
}

function practiceLine(takes: SpeechScore[], lines: InterpretLine[], means: SubScores): Localized {
  const k = weakestSubScore(means);
  const weakest = { k, v: means[k] };
  const name = SUB_SCORE_NAMES[weakest.k];
  const head = {
    zh: `下一步练习：${name.zh}（平均 ${Math.round(weakest.v)} 分，是你最弱的一项）——`,
    en: `Practise next: ${name.en} (average ${Math.round(weakest.v)}, your weakest part) — `,
  };
  // The most specific tip already measured for that area, taken from the weakest take.
  const worst = [...takes].sort((a, b) => a.scores[weakest.k] - b.scores[weakest.k])[0];
  const tip = worst.tips[0];
  const line = lines.find((l) => l.subtitlesId === worst.subtitlesId);
  const where = line
    ? { zh: `第 ${line.index} 句「${line.text}」`, en: `line ${line.index} ("${line.text}")` }
    : null;
  const exercise = EXERCISES[weakest.k];
  return {
    zh: `${head.zh}${exercise.zh}${tip && where ? `例如${where.zh}：${tip.zh}` : ''}`,
    en: `${head.en}${exercise.en}${tip && where ? ` For ${where.en}: ${tip.en}` : ''}`,
  };
}

const EXERCISES: Record<keyof SubScores, Localized> = {
  emotion: {
    zh: '每句录音前先说出这句的情绪，再夸张地演一遍，然后收回到自然的程度。',
    en: 'name the emotion before each take, play it exaggerated once, then bring it back to natural.',
  },
  intonation: {
    zh: '先跟着原声只哼旋律不说词，找准哪里升、哪里降，再带上台词。',
    en: "hum the actor's tune without words to find where it rises and falls, then add the words.",
  },
  energy: {
    zh: '圈出每句最重要的一两个词，把它们说得明显更响，其余词放轻。',
    en: 'mark the one or two key words of each line, say them clearly louder and the rest softer.',
  },
  timing: {
    zh: '跟着原声同时说（影子跟读），开口和停顿都对齐演员。',
    en: 'shadow the actor, speaking along with the clip so your start and pauses line up.',
  },
  quality: {
    zh: '在安静的房间录，离麦克风 15–30 厘米，先试音看音量条。',
    en: 'record in a quiet room, 15–30 cm from the microphone, and check the level meter first.',
  },
};

/** Median aligned pitch gap to the actor over the compared takes (semitones). */
function pitchDistance(takes: SpeechScore[]): number | null {
  return medianOf(takes.filter((t) => t.comparison).map((t) => t.comparison?.pitchDistanceSt));
}

/** Mean of each sub-score over the takes, to one decimal: the statements quote these figures. */
function subScoreMeans(takes: SpeechScore[]): SubScores {
  const out = {} as SubScores;
  for (const k of SUB_SCORES) out[k] = round(meanOf(takes.map((t) => t.scores[k])) ?? 0, 1);
  return out;
}

/** A statement's topic and the figures it quotes (keys of `figures`, `subScores.<name>` for a mean). */
type Topic = NonNullable<SoundSuggestData['points']>[number]['topic'];

export function interpretVoice(lines: InterpretLine[], totalLines: number): Interpretation {
  // The counts and averages are the run's figures by the one rule (aggregate.ts): the latest take per
  // line, a take without speech counted as recorded but not scored.
  const agg = aggregateRun(
    lines.map((l) => ({
      subtitlesId: l.subtitlesId,
      first: l.first ? aggregateTake(l.first, l.target ?? null) : null,
      second: l.second ? aggregateTake(l.second, l.target ?? null) : null,
    })),
    totalLines,
  );
  const takes = lines.map(latest).filter((t): t is SpeechScore => t !== null && hasSpeech(aggregateTake(t)));
  const scoredLines = agg.scoredLines;
  const dubbedLines = agg.dubbedLines;
  const silent = agg.silentLines;
  const emptyFigures: SoundSuggestData['figures'] = {
    scoredLines,
    dubbedLines,
    silentLines: silent,
    emotionAverage: null,
    totalLines,
    average: null,
    improvement: null,
    pitchRangeSemitones: null,
    syllablesPerSecond: null,
    loudnessRangeDb: null,
    emotionMatchRate: null,
  };
  if (takes.length === 0) {
    const none = dubbedLines === 0;
    return {
      zh: [
        none
          ? `这部影片的 ${totalLines} 句台词你还没有配音：先录几句，这里会根据你的录音给出声音分析。`
          : `已录的 ${dubbedLines} 句都没有检测到说话声：检查麦克风后重录，这里才能分析你的声音。`,
      ],
      en: [
        none
          ? `You have not dubbed any of this film's ${totalLines} lines yet: record a few and your voice analysis will appear here.`
          : `No speech was detected in your ${dubbedLines} recorded line(s): check the microphone and record again.`,
      ],
      figures: emptyFigures,
      subScores: null,
      pitchDistanceSt: null,
      points: [{ topic: 'overall', figures: ['figures.scoredLines'] }],
    };
  }
  // Figures are rounded once here and the statements quote the rounded values, so a card showing
  // a figure beside its statement shows the same number.
  const average = agg.average ?? 0;
  const means = agg.subScores ?? subScoreMeans(takes);
  const emotion = emotionLine(takes);
  const progress = improvementLine(lines);
  const weakest = weakestSubScore(means);
  const distance = pitchDistance(takes);
  const statements: Array<[Topic, string[], Localized | null]> = [
    [
      'overall',
      ['figures.scoredLines', 'figures.average'],
      silent > 0
        ? {
            zh: `总评：已配 ${dubbedLines}/${totalLines} 句，其中 ${silent} 句没有听到说话声，请重录；有声的 ${scoredLines} 句平均 ${Math.round(average)} 分。`,
            en: `Overall: ${dubbedLines}/${totalLines} lines dubbed; in ${silent} no speech was heard, so record them again; the ${scoredLines} with speech average ${Math.round(average)}.`,
          }
        : {
            zh: `总评：已配 ${scoredLines}/${totalLines} 句，平均 ${Math.round(average)} 分。`,
            en: `Overall: ${scoredLines}/${totalLines} lines dubbed, average ${Math.round(average)}.`,
          },
    ],
    ['range', ['figures.pitchRangeSemitones'], rangeLine(takes)],
    ['melody', ['subScores.intonation', 'pitchDistanceSt'], melodyLine(takes, means)],
    ['energy', ['figures.loudnessRangeDb', 'subScores.energy'], energyLine(takes, means)],
    ['pace', ['figures.syllablesPerSecond'], paceLine(takes)],
    ['emotion', ['figures.emotionMatchRate'], emotion.line],
    ['progress', ['figures.improvement'], progress.line],
    ['practice', [`subScores.${weakest}`], practiceLine(takes, lines, means)],
  ];
  const kept = statements.filter((s): s is [Topic, string[], Localized] => s[2] !== null);
  const parts = kept.map((s) => s[2]);
  const range = medianOf(takes.map((t) => t.prosody.learner.pitchRangeSemitones));
  const rate = medianOf(takes.map((t) => t.prosody.learner.syllablesPerSecond));
  const loud = medianOf(takes.map((t) => t.prosody.learner.loudnessRangeDb));
  return {
    zh: parts.map((p) => p.zh),
    en: parts.map((p) => p.en),
    points: kept.map(([topic, figures]) => ({ topic, figures })),
    figures: {
      scoredLines,
      dubbedLines,
      silentLines: silent,
      emotionAverage: agg.emotionAverage,
      totalLines,
      average,
      improvement: progress.improvement === null ? null : round(progress.improvement, 1),
      pitchRangeSemitones: range === null ? null : round(range, 2),
      syllablesPerSecond: rate === null ? null : round(rate, 2),
      loudnessRangeDb: loud === null ? null : round(loud, 2),
      emotionMatchRate: agg.emotionMatchRate,
    },
    subScores: means,
    pitchDistanceSt: distance === null ? null : round(distance, 2),
  };
}
