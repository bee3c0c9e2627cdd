import { z } from 'zod';
import { questionResult } from './answers';
import { emotion, localized, part, questionKind } from './films';
import { runSummary } from './runs';
import { contours, melodyVersion, prosodyFigures, subScores } from './speech';
import { wordCheck } from './words';

const id = z.string().min(1).max(64);

/**
 * get_info_by_id of part one: `id` is a record id (save_question_record's recordId), `runId` a run
 * id (get_run_history); one of them is needed.
 */
export const reportByIdRequest = z
  .object({ id: id.optional(), runId: id.optional() })
  .refine((q) => q.id !== undefined || q.runId !== undefined, {
    // A row of the server's catalogue (src/i18n/server-messages.ts), worded in the request's language.
    message: 'input.idOrRunId',
    path: ['id'],
  });

/**
 * get_info_by_id of part two: the call sends an empty payload and gets the learner's latest
 * run; `runId`, `id` (a record id) or `filmId` (that film's latest run) pick another.
 */
export const prptReportRequest = z.object({ id: id.optional(), runId: id.optional(), filmId: id.optional() });

export const reportQuestion = questionResult.extend({
  prompt: localized,
  kind: questionKind,
});

export const lineAttemptSummary = z.object({
  overall: z.number(),
  scores: subScores,
  detected: emotion,
  /** Whether `detected` was heard clearly enough to name (score JSON v2); absent or false: not named. */
  clear: z.boolean().optional(),
  /**
   * False when no speech was detected in the take: it is no score (its `overall` is not the learner's
   * performance; src/audio/scoring/aggregate.ts) and the line asks for a retake. Absent: speech.
   */
  speechDetected: z.boolean().optional(),
  arousal: z.number(),
  valence: z.number(),
  audioUrl: z.string(),
  /** The take with the actor's melody (signed like `audioUrl`), or why it could not be made. */
  melody: melodyVersion.optional(),
  /** Which words of the line the take said, and the actor's words (SpeechScore `words`, `actorWords`). */
  words: wordCheck.optional(),
  actorWords: wordCheck.nullable().optional(),
  createdAt: z.string(),
});
export type LineAttemptSummary = z.infer<typeof lineAttemptSummary>;

export const reportLine = z.object({
  subtitlesId: z.string(),
  index: z.number().int(),
  text: z.string(),
  translation: localized,
  speaker: z.string(),
  targetEmotion: emotion.nullable(),
  /** The original actor's reading of the line, from the cached analysis of the reference audio. */
  actor: z
    .object({
      detected: emotion,
      arousal: z.number(),
      valence: z.number(),
      probabilities: z.record(emotion, z.number()).optional(),
      figures: prosodyFigures.optional(),
    })
    .nullable(),
  first: lineAttemptSummary.nullable(),
  second: lineAttemptSummary.nullable(),
  /** The actor's cut line (the audio the melody version follows); absent without one. */
  referenceAudio: z.string().optional(),
  /** The latest take's contours for the overlay (second, else first); null without a take. */
  contours: contours.nullable().optional(),
});
export type ReportLine = z.infer<typeof reportLine>;

/**
 * The run's rendered dubbed video (docs/api.md, "get_info_by_id"): none without takes; rendering
 * while ffmpeg works (ask again); ready with its URL; failed with why.
 */
export const dubVideoStatus = z.enum(['none', 'rendering', 'ready', 'failed']);
export const dubVideo = z.object({
  status: dubVideoStatus,
  /** Relative media URL of the mp4 (H.264 + AAC, the film's size) when ready, else null. */
  url: z.string().nullable(),
  /** Why the render failed (status failed), Chinese first then English; else null. */
  message: z.string().nullable(),
});
export type DubVideo = z.infer<typeof dubVideo>;

export const report = z.object({
  /** The run's answer record id; the run id when the run has no answers yet. */
  id: z.string(),
  runId: z.string().optional(),
  part,
  film: z.object({ id: z.string(), title: z.string(), titleEn: z.string(), poster: z.string() }),
  learner: z.object({ nickname: z.string() }),
  createdAt: z.string(),
  /** Time spent watching and answering, as the client reported it; null when unknown. */
  durationMs: z.number().nullable(),
  answers: z.object({
    /** False for a run dubbed before its answers (score, maxScore and percent are then 0). */
    answered: z.boolean().optional(),
    score: z.number(),
    maxScore: z.number(),
    percent: z.number(),
    items: z.array(reportQuestion),
  }),
  /** Part two only. */
  dubbing: z
    .object({
      lines: z.array(reportLine),
      /**
       * The figures of src/audio/scoring/aggregate.ts (one rule for every page): lines whose latest
       * take has speech; the average, rates and improvement are over those.
       */
      scoredLines: z.number().int(),
      /** Lines with a take, with speech or not. */
      dubbedLines: z.number().int().optional(),
      /** Lines whose latest take has no speech: not a score, to be recorded again. */
      silentLines: z.number().int().optional(),
      average: z.number().nullable(),
      /** Mean (second − first) over lines whose both attempts have speech; null when none. */
      improvement: z.number().nullable(),
      emotionMatchRate: z.number().nullable(),
      /** Mean emotion sub-score of the scored lines. */
      emotionAverage: z.number().nullable().optional(),
      /**
       * The scene arc (src/audio/scoring/emotion-match.ts, sceneArc): whether the learner's intensity
       * moves from line to line with the actor's, each centred on its own voice over the scene; over
       * the lines whose latest take has speech and whose actor was read. `verdict` is what the app
       * says ("arc follows the scene", or not; null: nothing). Null with fewer than ARC_MIN_LINES lines.
       */
      arc: z
        .object({
          score: z.number(),
          correlation: z.number().nullable(),
          lines: z.number().int(),
          verdict: z.enum(['follows', 'against']).nullable(),
        })
        .nullable()
        .optional(),
    })
    .nullable(),
  /** Highlights from what the learner did (correct answers, strong figures, gains). */
  strengths: z.array(localized),
  practice: localized.nullable(),
  /** The learner's runs in this part, oldest first (the last is this run or a later one): a progress curve. */
  progress: z.array(runSummary).optional(),
  /** Part two: the run's rendered dubbed video; asking starts a render when the takes changed. */
  dubVideo: dubVideo.optional(),
});
export type Report = z.infer<typeof report>;

/** get_report_url: a signed, expiring link to the H5 report page (no login needed); same choice as get_info_by_id. */
export const reportUrlRequest = prptReportRequest;
export const reportUrlData = z.object({ url: z.string(), expiresAt: z.string() });
export type ReportUrlData = z.infer<typeof reportUrlData>;

export const soundSuggestRequest = z.object({
  filmId: id,
  lang: z.enum(['zh', 'en']).default('zh'),
  /** Another run than the film's latest. */
  runId: id.optional(),
});
export type SoundSuggestRequest = z.input<typeof soundSuggestRequest>;

/**
 * A line of the run whose latest take's words need another go (a word missed or not clear yet, or
 * another line said), for the sound suggestion: the take's check and the actor's, the take's signed
 * audio and the actor's line, so a word can be played from both (src/app/ui/line-words.tsx).
 */
export const suggestWordsLine = z.object({
  subtitlesId: z.string(),
  index: z.number().int(),
  words: wordCheck,
  actorWords: wordCheck.nullable().optional(),
  audioUrl: z.string(),
  referenceAudio: z.string().optional(),
});
export type SuggestWordsLine = z.infer<typeof suggestWordsLine>;

/** get_sounds_interpretation. audioInterpret is split into lines at newlines by the client (screens/sound-suggest/sound-suggest-state.ts). */
export const soundSuggestData = z.object({
  filmId: z.string(),
  lang: z.enum(['zh', 'en']),
  audioInterpret: z.string(),
  /** The figures the lines refer to, for display beside them. */
  figures: z.object({
    /** Lines whose latest take has speech (src/audio/scoring/aggregate.ts). */
    scoredLines: z.number().int(),
    /** Lines with a take, with speech or not; those without speech are `silentLines`. */
    dubbedLines: z.number().int().optional(),
    silentLines: z.number().int().optional(),
    /** Mean emotion sub-score of the scored lines. */
    emotionAverage: z.number().nullable().optional(),
    totalLines: z.number().int(),
    average: z.number().nullable(),
    improvement: z.number().nullable(),
    pitchRangeSemitones: z.number().nullable(),
    syllablesPerSecond: z.number().nullable(),
    loudnessRangeDb: z.number().nullable(),
    emotionMatchRate: z.number().nullable(),
    /** Median time the learner took for a line ÷ the actor's (the pace statement's one figure). */
    durationRatio: z.number().nullable().optional(),
  }),
  /** Mean of each sub-score over the latest attempts (one decimal), as the text quotes them (e.g. "语调分平均 43"). */
  subScores: subScores.nullable().optional(),
  /** Median aligned pitch gap to the actor (semitones), quoted by the melody statement. */
  pitchDistanceSt: z.number().nullable().optional(),
  /** The lines whose words need another go, in line order (absent: none, or an older server). */
  words: z.array(suggestWordsLine).optional(),
  /**
   * The statements of audioInterpret in order, each with its topic and the figures it quotes as
   * paths into this answer ("figures.average", "subScores.intonation", "pitchDistanceSt"), so a card
   * can show the same numbers as the text.
   */
  points: z
    .array(
      z.object({
        topic: z.enum([
          'overall',
          'range',
          'melody',
          'energy',
          'pace',
          'emotion',
          'progress',
          'practice',
          'none',
        ]),
        /** The line as audioInterpret has it. */
        text: z.string(),
        /** The topic's name in the asked language ("音调起伏"), null for a statement without one. */
        head: z.string().nullable().optional(),
        /** The statement without its head, so a card can set the head apart without reading the text. */
        body: z.string().optional(),
        figures: z.array(z.string()),
      }),
    )
    .optional(),
});
export type SoundSuggestData = z.infer<typeof soundSuggestData>;
