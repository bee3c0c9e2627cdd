/**
 * Tips in Chinese and English, generated from the measured differences (pure).
 *
 * Each candidate carries a severity (how much score it costs, 0–1) and sentences that quote the
 * numbers it was built from, so two takes with different problems never get the same advice.
 * The 2–3 most severe are returned; when a take has fewer problems, the strongest matches are
 * named instead (also with their numbers), so the learner knows what to keep.
 */
import type { Localized } from '../../api/contract';
import type { Comparison } from './compare';
import type { EmotionMatch } from './emotion-match';
import { EMOTION_LABELS, emotionVerdict, energyAdvice, fmt, pct } from './labels';
import { type Parts, type QualityFlags, SOLO, WEIGHTS } from './subscores';
import type { EmotionReading, ScoringVoice } from './types';

export interface TipInput {
  learner: ScoringVoice;
  /** The actor's voice, for quoting its figures next to the learner's (null without a reference). */
  actor: ScoringVoice | null;
  flags: QualityFlags;
  emotion: EmotionReading;
  /** Whether the heard category is sure enough to name (see labels.ts emotionVerdict). */
  clear: boolean;
  match: EmotionMatch;
  comparison: Comparison | null;
  parts: Parts;
  /** Learner's own pitch range (st) and loudness range (dB), used when there is no actor. */
  solo: { pitchRangeSt: number | null; loudnessRangeDb: number };
}

interface Candidate extends Localized {
  severity: number;
}

const MAX_TIPS = 3;
const MIN_TIPS = 2;
/** A problem worth a tip costs at least this much of the overall score (0–1, i.e. 2 points). */
const PROBLEM_THRESHOLD = 0.02;

function qualityTips(input: TipInput): Candidate[] {
  const q = input.learner.quality;
  const out: Candidate[] = [];
  if (!input.flags.speechDetected) {
    out.push({
      severity: 1,
      zh: '没有检测到说话声：请确认麦克风已打开、离嘴 15–30 厘米，在字幕出现时开口说这句台词。',
      en: 'No speech was detected: check the microphone is on and 15–30 cm from your mouth, and speak the line while the subtitle shows.',
    });
    out.push({
      severity: 0.9,
      zh: `录音峰值只有 ${fmt(q.peakDbfs)} dBFS，几乎是静音；录音前先试说一句，看音量条是否跳动。`,
      en: `The recording peaks at only ${fmt(q.peakDbfs)} dBFS, close to silence; say a test sentence first and watch the level meter move.`,
    });
    return out;
  }
  if (input.flags.tooQuiet) {
    out.push({
      severity: 0.8,
      zh: `音量太小（峰值 ${fmt(q.peakDbfs)} dBFS）：靠近麦克风或提高输入音量，峰值最好在 −20 到 −3 dBFS 之间。`,
      en: `Too quiet (peak ${fmt(q.peakDbfs)} dBFS): move closer or raise the input gain; aim for peaks between −20 and −3 dBFS.`,
    });
  }
  if (input.flags.clipped) {
    out.push({
      severity: 0.7,
      zh: `录音削波失真（${fmt(q.clippedFraction * 100, 2)}% 的采样到顶）：离麦克风远一点或调低输入音量。`,
      en: `The recording clips (${fmt(q.clippedFraction * 100, 2)}% of samples at full scale): move back or lower the input gain.`,
    });
  }
  if (input.flags.noisy && q.snrDb !== null) {
    out.push({
      severity: 0.6,
      zh: `背景噪声偏大（信噪比 ${fmt(q.snrDb, 0)} dB）：换个安静的地方或关掉风扇、空调再录。`,
      en: `Background noise is high (SNR ${fmt(q.snrDb, 0)} dB): record somewhere quieter, away from fans or air conditioning.`,
    });
  }
  return out;
}

/**
 * The emotion sentence. The category is named only when the reading is clear (calibrated
 * confidence at or above the model's label threshold); otherwise the learner hears "no clear
 * emotion heard". The advice itself comes from the arousal gap to the target, which carries across
 * voices and languages, quoted with its numbers and, next to an actor, the pitch range and pace
 * that make it up.
 */
function emotionTips(input: TipInput): Candidate[] {
  const { match, emotion, clear } = input;
  if (!match.target || match.arousalGap === null || !match.goal) return [];
  const severity = WEIGHTS.emotion * (1 - match.score / 100);
  const target = EMOTION_LABELS[match.target];
  const heard = emotionVerdict(emotion.detected, clear);
  const confidence = emotion.probabilities[emotion.detected] ?? 0;
  const source = match.targetSource === 'actor' ? 'actor' : 'annotated';
  const targetName =
    source === 'actor'
      ? { zh: '演员的语气', en: "the actor's tone" }
      : { zh: `这句的目标「${target.zh}」`, en: `the target, ${target.en}` };
  const who =
    source === 'actor'
      ? { zh: '演员', en: "the actor's" }
      : { zh: `目标「${target.zh}」`, en: `the target's (${target.en})` };
  const heardText = clear
    ? {
        zh: `听起来是「${heard.zh}」（把握 ${pct(confidence)}）`,
        en: `it sounds like ${heard.en} (${pct(confidence)} sure)`,
      }
    : { zh: heard.zh, en: heard.en };
  const gap = match.arousalGap;
  const figures = {
    zh: `唤醒度你 ${fmt(emotion.arousal, 2)}、${source === 'actor' ? '演员' : '目标'} ${fmt(match.goal.arousal, 2)}（−1 到 1），相差 ${fmt(Math.abs(gap), 2)}`,
    en: `arousal yours ${fmt(emotion.arousal, 2)}, ${source === 'actor' ? "the actor's" : "the target's"} ${fmt(match.goal.arousal, 2)} (−1 to 1), a gap of ${fmt(Math.abs(gap), 2)}`,
  };
  const advice = energyAdvice(gap, who);
  if (!advice) {
    const same = clear && emotion.detected === match.target;
    return [
      {
        severity: severity * 0.5,
        zh: `${same ? '情绪对上了' : '能量对上了'}：${heardText.zh}，${figures.zh}，与${targetName.zh}接近。`,
        en: `${same ? 'The emotion lands' : 'The energy lands'}: ${heardText.en}; ${figures.en}, close to ${targetName.en}.`,
      },
    ];
  }
  const how = cueFigures(input, gap);
  return [
    {
      severity,
      zh: `${advice.zh}（${figures.zh}）；${heardText.zh}。${how.zh}`,
      en: `${advice.en} (${figures.en}); ${heardText.en}. ${how.en}`,
    },
  ];
}

/** The cues behind an energy gap, with the learner's and (when there is one) the actor's figures. */
function cueFigures(input: TipInput, gap: number): Localized {
  const more = gap < 0;
  const l = input.learner.figures;
  const a = input.actor?.figures ?? null;
  const parts: Localized[] = [];
  if (l.pitchRangeSemitones !== null) {
    const actor = a?.pitchRangeSemitones;
    parts.push({
      zh: `音高起伏 ${fmt(l.pitchRangeSemitones)} 个半音${actor != null ? `（演员 ${fmt(actor)}）` : ''}`,
      en: `pitch range ${fmt(l.pitchRangeSemitones)} semitones${actor != null ? ` (actor ${fmt(actor)})` : ''}`,
    });
  }
  if (l.syllablesPerSecond !== null) {
    const actor = a?.syllablesPerSecond;
    parts.push({
      zh: `语速每秒 ${fmt(l.syllablesPerSecond)} 个音节${actor != null ? `（演员 ${fmt(actor)}）` : ''}`,
      en: `${fmt(l.syllablesPerSecond)} syllables/s${actor != null ? ` (actor ${fmt(actor)})` : ''}`,
    });
  }
  const hint = more
    ? {
        zh: '重读词更响、音调抬高、节奏更紧',
        en: 'Stress the key words louder and higher, keep the pace tight',
      }
    : { zh: '放轻放慢、音调放低', en: 'Soften, slow down and lower the pitch' };
  if (parts.length === 0) return { zh: `${hint.zh}。`, en: `${hint.en}.` };
  return {
    zh: `${hint.zh}：你的${parts.map((p) => p.zh).join('，')}。`,
    en: `${hint.en}: your ${parts.map((p) => p.en).join(', ')}.`,
  };
}

function intonationTips(input: TipInput): Candidate[] {
  const c = input.comparison;
  const out: Candidate[] = [];
  if (!c) {
    const range = input.solo.pitchRangeSt;
    if (range !== null && range < SOLO.pitchTipSt) {
      out.push({
        severity: WEIGHTS.intonation * (1 - input.parts.intonation.range),
        zh: `音高起伏只有 ${fmt(range)} 个半音，听起来偏平：把关键词的音调抬高，让句子有起有落。`,
        en: `Your pitch moves only ${fmt(range)} semitones, which sounds flat: lift the key words so the line rises and falls.`,
      });
    }
    return out;
  }
  const i = c.intonation;
  const p = input.parts.intonation;
  if (i.learnerRangeSt !== null && i.actorRangeSt !== null && p.range < 0.85) {
    const narrower = i.learnerRangeSt < i.actorRangeSt;
    out.push({
      severity: WEIGHTS.intonation * 0.3 * (1 - p.range),
      zh: narrower
        ? `音高起伏 ${fmt(i.learnerRangeSt)} 个半音，演员是 ${fmt(i.actorRangeSt)}：把重读词的音调拉得更高，句子的起伏再大一些。`
        : `音高起伏 ${fmt(i.learnerRangeSt)} 个半音，比演员的 ${fmt(i.actorRangeSt)} 大：收一收，别让每个词都上下跳。`,
      en: narrower
        ? `Your pitch range is ${fmt(i.learnerRangeSt)} semitones, the actor's ${fmt(i.actorRangeSt)}: lift the stressed words higher and let the line move more.`
        : `Your pitch range is ${fmt(i.learnerRangeSt)} semitones, wider than the actor's ${fmt(i.actorRangeSt)}: rein it in so not every word jumps.`,
    });
  }
  const le = i.learnerEndMoveSt;
  const ae = i.actorEndMoveSt;
  if (le !== null && ae !== null && Math.abs(le - ae) >= 2.5 && Math.sign(le) !== Math.sign(ae)) {
    const dir = (v: number) => (v > 0 ? { zh: '上扬', en: 'rises' } : { zh: '下降', en: 'falls' });
    out.push({
      severity: WEIGHTS.intonation * 0.35 * Math.min(1, Math.abs(le - ae) / 6),
      zh: `句尾：演员的音调${dir(ae).zh} ${fmt(Math.abs(ae))} 个半音，你的${dir(le).zh} ${fmt(Math.abs(le))} 个半音；跟着原声把最后一个词${dir(ae).zh}。`,
      en: `At the end the actor's pitch ${dir(ae).en} ${fmt(Math.abs(ae))} semitones and yours ${dir(le).en} ${fmt(Math.abs(le))}; let your last word ${ae > 0 ? 'rise' : 'fall'} too.`,
    });
  }
  if ((p.shape < 0.6 || p.distance < 0.6) && i.correlation !== null) {
    out.push({
      severity: WEIGHTS.intonation * (0.3 * (1 - p.shape) + 0.4 * (1 - p.distance)),
      zh: `语调走向和原声不同（对齐后相关 ${fmt(i.correlation, 2)}，平均差 ${fmt(i.distanceSt)} 个半音）：先跟着原声哼出旋律，再带上台词。`,
      en: `Your melody follows a different shape (aligned correlation ${fmt(i.correlation, 2)}, mean gap ${fmt(i.distanceSt)} semitones): hum the actor's tune first, then add the words.`,
    });
  }
  return out;
}

function energyTips(input: TipInput): Candidate[] {
  const c = input.comparison;
  if (!c) {
    const r = input.solo.loudnessRangeDb;
    if (r >= SOLO.loudTipDb) return [];
    return [
      {
        severity: WEIGHTS.energy * (1 - input.parts.energy.range),
        zh: `音量变化只有 ${fmt(r)} dB：重读词说得更响，其余词放轻，让句子有轻重。`,
        en: `Your loudness varies by only ${fmt(r)} dB: say the stressed words louder and the rest softer.`,
      },
    ];
  }
  const e = c.energy;
  const p = input.parts.energy;
  const out: Candidate[] = [];
  if (p.range < 0.8) {
    const smaller = e.learnerRangeDb < e.actorRangeDb;
    out.push({
      severity: WEIGHTS.energy * 0.3 * (1 - p.range),
      zh: smaller
        ? `音量变化 ${fmt(e.learnerRangeDb)} dB，演员是 ${fmt(e.actorRangeDb)} dB：重读词更响、其余放轻，拉开轻重。`
        : `音量变化 ${fmt(e.learnerRangeDb)} dB，比演员的 ${fmt(e.actorRangeDb)} dB 大：音量更平稳一些，别忽大忽小。`,
      en: smaller
        ? `Your loudness varies by ${fmt(e.learnerRangeDb)} dB, the actor's by ${fmt(e.actorRangeDb)} dB: punch the stressed words and soften the rest.`
        : `Your loudness varies by ${fmt(e.learnerRangeDb)} dB, more than the actor's ${fmt(e.actorRangeDb)} dB: keep the level steadier.`,
    });
  }
  if ((p.shape < 0.55 || p.distance < 0.55) && e.correlation !== null) {
    out.push({
      severity: WEIGHTS.energy * (0.3 * (1 - p.shape) + 0.4 * (1 - p.distance)),
      zh: `轻重的位置和原声不同（相关 ${fmt(e.correlation, 2)}）：听原声哪几个词最响，把你的重音放在同样的词上。`,
      en: `Your stress falls on different words (correlation ${fmt(e.correlation, 2)}): listen for the actor's loudest words and stress the same ones.`,
    });
  }
  return out;
}

function timingTips(input: TipInput): Candidate[] {
  const c = input.comparison;
  const p = input.parts.timing;
  const out: Candidate[] = [];
  if (!c) {
    const rate = input.learner.figures.syllablesPerSecond;
    if (rate !== null && p.duration < 0.8) {
      out.push({
        severity: WEIGHTS.timing * 0.45 * (1 - p.duration),
        zh:
          rate < 2.5
            ? `语速偏慢（每秒 ${fmt(rate)} 个音节）：说得连贯一些。`
            : `语速偏快（每秒 ${fmt(rate)} 个音节）：放慢一点，把字咬清楚。`,
        en:
          rate < 2.5
            ? `Slow pace (${fmt(rate)} syllables/s): keep the words flowing.`
            : `Fast pace (${fmt(rate)} syllables/s): slow down and articulate.`,
      });
    }
    return out;
  }
  const t = c.timing;
  if (p.duration < 0.8) {
    const slower = t.durationRatio > 1;
    const change = Math.round(Math.abs(t.durationRatio - 1) * 100);
    out.push({
      severity: WEIGHTS.timing * 0.45 * (1 - p.duration),
      zh: slower
        ? `你比演员慢 ${change}%（说完用了演员的 ${fmt(t.durationRatio, 2)} 倍时间）：加快语速，减少拖音。`
        : `你比演员快 ${change}%（只用了演员 ${fmt(t.durationRatio, 2)} 倍的时间）：放慢一些，给重要的词留出时间。`,
      en: slower
        ? `You are ${change}% slower than the actor (${fmt(t.durationRatio, 2)}× the time): pick up the pace and shorten drawn-out words.`
        : `You are ${change}% faster than the actor (${fmt(t.durationRatio, 2)}× the time): slow down and give the key words room.`,
    });
  }
  if (p.onset < 0.8) {
    const late = t.onsetDelaySeconds > 0;
    out.push({
      severity: WEIGHTS.timing * 0.3 * (1 - p.onset),
      zh: late
        ? `比原声晚 ${fmt(t.onsetDelaySeconds)} 秒开口：字幕一出现就开始说。`
        : `比原声早 ${fmt(-t.onsetDelaySeconds)} 秒开口：等字幕出现再开始。`,
      en: late
        ? `You start ${fmt(t.onsetDelaySeconds)} s after the actor: begin as soon as the subtitle appears.`
        : `You start ${fmt(-t.onsetDelaySeconds)} s before the actor: wait for the subtitle.`,
    });
  }
  if (t.missingPauses > 0 && t.actorPauses.length > 0) {
    const at = t.actorPauses.map((x) => pct(x)).join('、');
    out.push({
      severity: WEIGHTS.timing * 0.25 * (1 - p.pauses),
      zh: `演员在句中约 ${at} 处停顿，你少停了 ${t.missingPauses} 处：在同样的位置换气停一下。`,
      en: `The actor pauses at about ${at.replaceAll('、', ', ')} of the line and you skip ${t.missingPauses} of them: pause in the same places.`,
    });
  } else if (t.extraPauses > 0) {
    out.push({
      severity: WEIGHTS.timing * 0.25 * (1 - p.pauses),
      zh: `你在句中多停了 ${t.extraPauses} 次，演员是一口气说完的：把这句连起来说。`,
      en: `You pause ${t.extraPauses} more time(s) than the actor: say the line in one breath.`,
    });
  }
  return out;
}

/** What went well, with numbers, to fill up to MIN_TIPS when there are few problems. */
function strengthTips(input: TipInput): Candidate[] {
  const out: Candidate[] = [];
  const c = input.comparison;
  if (c) {
    if (c.intonation.voicedPairs >= 5 && Number.isFinite(c.intonation.distanceSt)) {
      out.push({
        severity: -input.parts.intonation.distance,
        zh: `语调贴近原声：对齐后平均只差 ${fmt(c.intonation.distanceSt)} 个半音，保持这个旋律。`,
        en: `Your melody is close to the actor's: a mean gap of ${fmt(c.intonation.distanceSt)} semitones after alignment. Keep it.`,
      });
    }
    out.push({
      severity: -input.parts.timing.duration,
      zh: `节奏接近：你用了演员 ${fmt(c.timing.durationRatio, 2)} 倍的时间说完这句。`,
      en: `Your pace is close: you take ${fmt(c.timing.durationRatio, 2)}× the actor's time for the line.`,
    });
    out.push({
      severity: -input.parts.energy.range,
      zh: `轻重变化到位：音量变化 ${fmt(c.energy.learnerRangeDb)} dB，演员 ${fmt(c.energy.actorRangeDb)} dB。`,
      en: `Good light and shade: ${fmt(c.energy.learnerRangeDb)} dB of loudness change against the actor's ${fmt(c.energy.actorRangeDb)} dB.`,
    });
  } else {
    if (input.solo.pitchRangeSt !== null) {
      out.push({
        severity: -input.parts.intonation.range,
        zh: `音高起伏 ${fmt(input.solo.pitchRangeSt)} 个半音，句子有旋律感。`,
        en: `Your pitch moves ${fmt(input.solo.pitchRangeSt)} semitones: the line has a melody.`,
      });
    }
    out.push({
      severity: -input.parts.energy.range,
      zh: `音量变化 ${fmt(input.solo.loudnessRangeDb)} dB，轻重分明。`,
      en: `Your loudness varies by ${fmt(input.solo.loudnessRangeDb)} dB: clear light and shade.`,
    });
  }
  return out.sort((a, b) => a.severity - b.severity);
}

export function buildTips(input: TipInput): Localized[] {
  const quality = qualityTips(input);
  if (!input.flags.speechDetected) return quality.map(({ zh, en }) => ({ zh, en }));
  const problems = [
    ...quality,
    ...emotionTips(input),
    ...intonationTips(input),
    ...energyTips(input),
    ...timingTips(input),
  ]
    .filter((t) => t.severity >= PROBLEM_THRESHOLD || quality.includes(t))
    .sort((a, b) => b.severity - a.severity)
    .slice(0, MAX_TIPS);
  const chosen = [...problems];
  if (chosen.length < MIN_TIPS) {
    // The emotion sentence is worth saying even when it is good news.
    const praise = [...emotionTips(input).filter((t) => !chosen.includes(t)), ...strengthTips(input)];
    for (const t of praise) {
      if (chosen.length >= MIN_TIPS) break;
      if (!chosen.some((c) => c.zh === t.zh)) chosen.push(t);
    }
  }
  return chosen.map(({ zh, en }) => ({ zh, en }));
}
