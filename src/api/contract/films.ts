import { z } from 'zod';
import { filmWordsNotChecked } from './words';

export const part = z.enum(['prpo', 'prpt']);
export type Part = z.infer<typeof part>;

export const emotion = z.enum(['anger', 'boredom', 'disgust', 'fear', 'happiness', 'sadness', 'neutral']);
export type Emotion = z.infer<typeof emotion>;
export const EMOTIONS = emotion.options;

export const localized = z.object({ zh: z.string(), en: z.string() });
export type Localized = z.infer<typeof localized>;

/** The learner's progress on a film in one part, read from their latest run (docs/api.md, "Runs"). */
export const filmProgress = z.object({
  /** The latest run has answers. */
  answered: z.boolean(),
  /** Best answer score in percent over every run, null before the first answer. */
  bestScore: z.number().nullable(),
  /** Lines dubbed in the latest run (part two). */
  dubbedLines: z.number().int(),
  totalLines: z.number().int(),
  lastActivityAt: z.string().nullable(),
  /** The latest run's id; null before the first run. */
  runId: z.string().nullable().optional(),
  /** How many runs the learner has made of this film in this part. */
  runs: z.number().int().optional(),
});
export type FilmProgress = z.infer<typeof filmProgress>;

export const filmSummary = z.object({
  id: z.string(),
  title: z.string(),
  titleEn: z.string(),
  /** Relative media URL; the client prefixes /producer (src/api/image.ts). */
  poster: z.string(),
  durationMs: z.number().int(),
  parts: z.array(part),
  lineCount: z.number().int(),
  questionCount: z.number().int(),
  progress: filmProgress,
  /**
   * The language the film's lines are spoken in (BCP 47 primary tag: "en", "zh", "de"), null when the
   * film declares none. Words are checked in English and Mandarin lines only (WORD_CHECK_LANGUAGES).
   */
  language: z.string().nullable().default(null),
});
export type FilmSummary = z.infer<typeof filmSummary>;

/** prpo: POST form-encoded; prpt: GET query. */
export const filmListRequest = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
});
export type FilmListRequest = z.input<typeof filmListRequest>;

export const filmList = z.object({
  list: z.array(filmSummary),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type FilmList = z.infer<typeof filmList>;

export const filmDetailRequest = z.object({ id: z.string().min(1).max(64) });
export type FilmDetailRequest = z.infer<typeof filmDetailRequest>;

/** A subtitle line as the server sends it. startTime/endTime are `mm:ss` or `mm:ss.SSS` (src/audio/dsp/time.ts). */
export const subtitle = z.object({
  id: z.string(),
  index: z.number().int(),
  startTime: z.string(),
  endTime: z.string(),
  startMs: z.number().int(),
  endMs: z.number().int(),
  text: z.string(),
  translation: localized,
  speaker: z.string(),
  targetEmotion: emotion.nullable(),
  /** Relative URL of the original actor's line (wav), cut from the film at import. */
  referenceAudio: z.string(),
  /**
   * Part two: the actor's pitch contour over the cue, from the cached analysis of the line: one value
   * every `hopSeconds` from the cue start, in semitones re the actor's median pitch on the line, null
   * where unvoiced (the dub page's pitch guide). null until the line has been analysed.
   */
  actorPitch: z
    .object({ hopSeconds: z.number(), semitones: z.array(z.number().nullable()) })
    .nullable()
    .optional(),
});
export type Subtitle = z.infer<typeof subtitle>;

export const questionKind = z.enum(['single', 'multiple', 'text']);
export type QuestionKind = z.infer<typeof questionKind>;

export const questionOption = z.object({ id: z.string(), label: localized });

/** A question as the learner sees it: never the answer key. */
export const question = z.object({
  id: z.string(),
  kind: questionKind,
  prompt: localized,
  options: z.array(questionOption),
  required: z.boolean(),
  points: z.number().int(),
});
export type Question = z.infer<typeof question>;

export const role = z.object({ name: z.string(), description: localized });

export const filmDetail = filmSummary.extend({
  synopsis: localized,
  video: z.string(),
  /** WebVTT track (original text) for the player. */
  subtitlesTrack: z.string(),
  /**
   * Voice-free background track (AAC .m4a: music, effects, room tone) that "watch my dub" plays
   * under the learner's takes; null for a film imported before backgrounds existed.
   */
  background: z.string().nullable().default(null),
  roles: z.array(role),
  subtitlesList: z.array(subtitle),
  questions: z.array(question),
  /** Part two: why the takes' words will not be checked, or null when they will (docs/api.md). */
  wordsNotChecked: filmWordsNotChecked.nullable().optional(),
});
export type FilmDetail = z.infer<typeof filmDetail>;
