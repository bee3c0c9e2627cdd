import { z } from 'zod';
import { SPEECH_SCORE_VERSION } from './constants';
import { emotion, localized } from './films';
import { wordCheck } from './words';

/** Multipart text fields sent with the wav (`file` field) to POST /ai/speech_emotion. */
export const speechEmotionFields = z.object({
  subtitlesId: z.string().min(1).max(64),
  filmId: z.string().min(1).max(64),
  attempt: z.coerce.number().int().min(1).max(2),
  /** Client-side id of the take, so a retried upload is stored once (idempotency key). */
  takeId: z.string().min(8).max(64).optional(),
  /** The run the take belongs to (get_run); without it, the learner's latest run of the film. */
  runId: z.string().min(1).max(64).optional(),
});
export type SpeechEmotionFields = z.infer<typeof speechEmotionFields>;

export const emotionProbabilities = z.record(emotion, z.number());

/**
 * The voice warm-up (docs/api.md, "Voice warm-up"). status: none = offer it; recorded / skipped =
 * answered; known = the learner has takes already. `refused`: the recording did not hold a voice the
 * reading can use (nothing stored); `seeded`: the warm-up became the learner's baseline.
 */
export const voiceWarmupState = z.object({
  status: z.enum(['none', 'recorded', 'skipped', 'known']),
  refused: z.enum(['non_finite_samples', 'no_speech', 'no_pitch', 'non_finite_features']).optional(),
  seeded: z.boolean().optional(),
});
export type VoiceWarmupState = z.infer<typeof voiceWarmupState>;

/** Key prosody figures of one voice, for display next to each other (learner vs actor). */
export const prosodyFigures = z.object({
  durationMs: z.number(),
  speechMs: z.number(),
  pitchMedianHz: z.number().nullable(),
  pitchRangeSemitones: z.number().nullable(),
  loudnessMeanDb: z.number(),
  loudnessRangeDb: z.number(),
  syllablesPerSecond: z.number().nullable(),
  pauseCount: z.number().int(),
  jitterPct: z.number().nullable(),
  shimmerDb: z.number().nullable(),
  hnrDb: z.number().nullable(),
});
export type ProsodyFigures = z.infer<typeof prosodyFigures>;

/** Contours downsampled for plotting: pitch in semitones re the speaker's own median, loudness in dB. */
export const contours = z.object({
  /** Seconds on the learner's timeline. */
  t: z.array(z.number()),
  learnerPitch: z.array(z.number().nullable()),
  /** The actor's contour warped (DTW) onto the learner's timeline; null where no reference. */
  actorPitch: z.array(z.number().nullable()).nullable(),
  learnerLoudness: z.array(z.number()),
  actorLoudness: z.array(z.number()).nullable(),
  /**
   * The pitch of the take with the actor's melody (`melody`), read back from its audio by the same
   * tracker, semitones re its own median, pulled onto the learner's timeline like `actorPitch`
   * (src/audio/scoring/score.ts plotMelodyPitch). Absent when no melody version was made.
   */
  melodyPitch: z.array(z.number().nullable()).optional(),
});
export type Contours = z.infer<typeof contours>;

export const subScores = z.object({
  emotion: z.number(),
  intonation: z.number(),
  energy: z.number(),
  timing: z.number(),
  quality: z.number(),
});
export type SubScores = z.infer<typeof subScores>;

export const qualityReport = z.object({
  speechDetected: z.boolean(),
  tooQuiet: z.boolean(),
  clipped: z.boolean(),
  snrDb: z.number().nullable(),
});

/**
 * Measured differences from the actor (added compatibly in v1: optional, null without a reference).
 * The sound suggestion reads these from stored takes.
 */
export const comparisonFigures = z.object({
  /** Mean |learner − actor| pitch after DTW alignment, semitones re each speaker's median. */
  pitchDistanceSt: z.number().nullable(),
  pitchCorrelation: z.number().nullable(),
  /** Pitch movement over the end of the line (st, > 0 rises). */
  learnerEndMoveSt: z.number().nullable(),
  actorEndMoveSt: z.number().nullable(),
  loudnessDistanceDb: z.number(),
  loudnessCorrelation: z.number().nullable(),
  /** Learner onset − actor onset (s). */
  onsetDelaySeconds: z.number(),
  /** Learner speech span / actor speech span. */
  durationRatio: z.number(),
  /** 0–1 agreement of pause positions (1 when neither pauses). */
  pauseAgreement: z.number(),
});
export type ComparisonFigures = z.infer<typeof comparisonFigures>;

/** A value a statement quotes: a figure, a choice, a word in both languages or another statement. */
export type FactValue =
  | string
  | number
  | { zh: string; en: string }
  | { id: string; values?: Record<string, FactValue> };
const factValue: z.ZodType<FactValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    localized,
    z.object({ id: z.string(), values: z.record(z.string(), factValue).optional() }),
  ]),
);
export const takeStatement = z.object({
  id: z.string(),
  values: z.record(z.string(), factValue).optional(),
  severity: z.number(),
});

/** "Your voice with the actor's melody" for one take. */
export const melodyVersion = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ready'), url: z.string() }),
  z.object({
    status: z.literal('unavailable'),
    reason: z.enum(['take_too_little_voiced', 'actor_too_little_voiced']),
  }),
]);
export type MelodyVersion = z.infer<typeof melodyVersion>;

/** The result of one scored take (versioned). Stored by the client as first/secondUserAudioJson. */
export const speechScore = z.object({
  version: z.union([z.literal(1), z.literal(2), z.literal(SPEECH_SCORE_VERSION)]),
  takeId: z.string(),
  subtitlesId: z.string(),
  filmId: z.string(),
  attempt: z.number().int(),
  /** 0–100. */
  overall: z.number(),
  scores: subScores,
  emotion: z.object({
    /** The model's top class; shown to a learner only when `clear` (v3: see `named`). */
    detected: emotion,
    probabilities: emotionProbabilities,
    arousal: z.number(),
    valence: z.number(),
    target: emotion.nullable(),
    targetSource: z.enum(['annotated', 'actor', 'none']),
    actorProbabilities: emotionProbabilities.nullable(),
    /**
     * v2: calibrated probability of `detected` (0–1). v3: present only when this percentage may be
     * shown to the learner (its calibration holds on speech the model never heard); absent otherwise.
     */
    confidence: z.number().optional(),
    /**
     * v2: whether `detected` is named to the learner with its percentage (else "no clear emotion
     * heard"). v3: true only when `named` and `confidence` is present.
     */
    clear: z.boolean().optional(),
    /**
     * v3: whether `detected` may be named to the learner at all (docs/emotion.md: only classes whose
     * precision holds on held-out speakers, shifted recordings and another language).
     */
    named: z.boolean().optional(),
    /** v3: the naming rule applied: a first take read cold, or one read against the learner's own takes. */
    reading: z.enum(['cold', 'baseline']).optional(),
    /**
     * v3: how many recordings of the learner's voice (earlier takes, or the voice warm-up) the take
     * was read against; 0: read cold, against voices in general. Absent in results written before it.
     */
    voiceTakes: z.number().int().min(0).optional(),
    /** v3: 0–1, how close the learner's energy (arousal) is to the target's; null without a target. */
    energyAgreement: z.number().nullable().optional(),
    /** v3: 0–1, how far the category reading agrees beyond energy; null without a target. */
    categoryAgreement: z.number().nullable().optional(),
    /** v2: where the target sits on the arousal scale (the actor's reading or the emotion's typical place). */
    targetArousal: z.number().nullable().optional(),
    /** v2: learner's arousal − targetArousal (> 0: more energy than the target), null without a target. */
    arousalGap: z.number().nullable().optional(),
  }),
  prosody: z.object({ learner: prosodyFigures, actor: prosodyFigures.nullable() }),
  contours,
  quality: qualityReport,
  /**
   * What to tell the learner, as facts: a statement id of the shared catalogue (src/i18n), the
   * measured values it quotes and its severity (0–1), most severe first. The client words them in
   * the learner's language; nothing parses them.
   */
  statements: z.array(takeStatement).optional(),
  /** Results written before `statements`: the same advice, already worded in both languages. */
  tips: z.array(localized).optional(),
  comparison: comparisonFigures.nullable().optional(),
  /**
   * v2: `scores.intonation`, `energy` and `timing` measure how closely the take follows the actor's
   * delivery (melody, stress, pace), not the emotion; true when there was an actor to follow.
   */
  deliveryLikeness: z.boolean().optional(),
  audioUrl: z.string(),
  /**
   * The take resynthesised with the actor's melody, timing and loudness in the learner's own voice
   * (src/audio/scoring/melody.ts): its media path when made, or why it could not be. Absent on a
   * line without the actor's audio and on takes scored before it existed.
   */
  melody: melodyVersion.optional(),
  /**
   * Which words of the line were heard (server/words); part of `overall` when checked
   * (src/audio/scoring/words.ts). Absent on takes scored before the word check existed.
   */
  words: wordCheck.optional(),
  /**
   * The same check of the line's reference audio (the actor), so a word can be played from the actor
   * and from the take (src/app/ui/line-words.tsx). Absent or null without an actor's line or a check.
   */
  actorWords: wordCheck.nullable().optional(),
  createdAt: z.string(),
});
export type SpeechScore = z.infer<typeof speechScore>;
