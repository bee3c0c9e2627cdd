import { z } from 'zod';
import { questionResult } from './answers';
import { emotion, localized, part, questionKind } from './films';
import { subScores } from './speech';

export const reportByIdRequest = z.object({ id: z.string().min(1).max(64) });

export const reportQuestion = questionResult.extend({
  prompt: localized,
  kind: questionKind,
});

export const lineAttemptSummary = z.object({
  overall: z.number(),
  scores: subScores,
  detected: emotion,
  arousal: z.number(),
  valence: z.number(),
  audioUrl: z.string(),
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
  actor: z.object({ detected: emotion, arousal: z.number(), valence: z.number() }).nullable(),
  first: lineAttemptSummary.nullable(),
  second: lineAttemptSummary.nullable(),
});
export type ReportLine = z.infer<typeof reportLine>;

export const report = z.object({
  id: z.string(),
  part,
  film: z.object({ id: z.string(), title: z.string(), titleEn: z.string(), poster: z.string() }),
  learner: z.object({ nickname: z.string() }),
  createdAt: z.string(),
  durationMs: z.number().nullable(),
  answers: z.object({
    score: z.number(),
    maxScore: z.number(),
    percent: z.number(),
    items: z.array(reportQuestion),
  }),
  /** Part two only. */
  dubbing: z
    .object({
      lines: z.array(reportLine),
      scoredLines: z.number().int(),
      average: z.number().nullable(),
      /** Mean (second − first) over lines with both attempts; null when none. */
      improvement: z.number().nullable(),
      emotionMatchRate: z.number().nullable(),
    })
    .nullable(),
  strengths: z.array(localized),
  practice: localized.nullable(),
});
export type Report = z.infer<typeof report>;

/** get_report_url: a signed, expiring link to the H5 report page (no login needed). */
export const reportUrlRequest = z.object({ id: z.string().min(1).max(64).optional() });
export const reportUrlData = z.object({ url: z.string(), expiresAt: z.string() });
export type ReportUrlData = z.infer<typeof reportUrlData>;

export const soundSuggestRequest = z.object({
  filmId: z.string().min(1).max(64),
  lang: z.enum(['zh', 'en']).default('zh'),
});
export type SoundSuggestRequest = z.input<typeof soundSuggestRequest>;

/** get_sounds_interpretation. audioInterpret is split into lines at newlines by the client (spec §3). */
export const soundSuggestData = z.object({
  filmId: z.string(),
  lang: z.enum(['zh', 'en']),
  audioInterpret: z.string(),
  /** The figures the lines refer to, for display beside them. */
  figures: z.object({
    scoredLines: z.number().int(),
    totalLines: z.number().int(),
    average: z.number().nullable(),
    improvement: z.number().nullable(),
    pitchRangeSemitones: z.number().nullable(),
    syllablesPerSecond: z.number().nullable(),
    loudnessRangeDb: z.number().nullable(),
    emotionMatchRate: z.number().nullable(),
  }),
});
export type SoundSuggestData = z.infer<typeof soundSuggestData>;
