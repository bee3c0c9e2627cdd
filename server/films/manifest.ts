import { z } from 'zod';
import { emotion, localized, part } from '../../src/api/contract';

/**
 * The `film.json` of a film folder (read by `npm run films:import` and the demo builder).
 * Media paths are relative to the folder. `lines[i]` describes the i-th subtitle cue (index from 1).
 */
const relativeFile = z
  .string()
  .min(1)
  .max(200)
  .refine(
    (p) => !p.startsWith('/') && !p.split(/[\\/]/).includes('..'),
    'must be a file inside the film folder',
  );

export const manifestQuestion = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'use 1–32 letters, digits, _ or -'),
    kind: z.enum(['single', 'multiple', 'text']),
    prompt: localized,
    options: z
      .array(z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,16}$/), label: localized }))
      .default([]),
    /** Option ids that are correct; empty for open text questions. */
    answer: z.array(z.string()).default([]),
    explanation: localized,
    required: z.boolean().default(true),
    points: z.number().int().min(0).max(100).default(10),
  })
  .superRefine((q, ctx) => {
    const ids = new Set(q.options.map((o) => o.id));
    if (ids.size !== q.options.length)
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'duplicate option id' });
    if (q.kind === 'text') {
      if (q.options.length > 0)
        ctx.addIssue({ code: 'custom', path: ['options'], message: 'text questions have no options' });
      return;
    }
    if (q.options.length < 2)
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'need at least 2 options' });
    if (q.answer.length === 0)
      ctx.addIssue({ code: 'custom', path: ['answer'], message: 'need at least one correct option' });
    if (q.kind === 'single' && q.answer.length > 1) {
      ctx.addIssue({ code: 'custom', path: ['answer'], message: 'a single-choice question has one answer' });
    }
    for (const a of q.answer) {
      if (!ids.has(a))
        ctx.addIssue({ code: 'custom', path: ['answer'], message: `answer "${a}" is not an option id` });
    }
  });
export type ManifestQuestion = z.infer<typeof manifestQuestion>;

export const manifestLine = z.object({
  index: z.number().int().min(1),
  speaker: z.string().min(1).max(64),
  translation: localized,
  targetEmotion: emotion.nullable().default(null),
});
export type ManifestLine = z.infer<typeof manifestLine>;

export const filmManifest = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'use a lower-case slug: letters, digits and -'),
    title: z.string().min(1).max(200),
    titleEn: z.string().min(1).max(200),
    synopsis: localized,
    parts: z.array(part).min(1),
    roles: z.array(z.object({ name: z.string().min(1).max(64), description: localized })).default([]),
    video: relativeFile,
    poster: relativeFile,
    subtitles: relativeFile.refine((p) => /\.(srt|vtt)$/i.test(p), 'must be an .srt or .vtt file'),
    /**
     * The voice-free background track (music, effects, room tone). Optional: without it the importer
     * looks for background.m4a / background.wav, else derives one (server/films/background.ts).
     */
    background: relativeFile.refine((p) => /\.(wav|m4a)$/i.test(p), 'must be a .wav or .m4a file').optional(),
    /**
     * The language the lines are spoken in, as a BCP 47 primary tag ("en", "zh", "de"). English and
     * Mandarin lines have their words checked in every take; without the field, or in another
     * language, a take is scored on its delivery and the learner is told the words were not checked
     * (docs/score.md).
     */
    language: z
      .string()
      .regex(/^[a-z]{2,3}$/, 'use the BCP 47 primary language tag in lower case, e.g. "en", "zh" or "de"')
      .nullable()
      .default(null),
    lines: z.array(manifestLine).min(1),
    questions: z.array(manifestQuestion).default([]),
  })
  .superRefine((m, ctx) => {
    m.lines.forEach((l, i) => {
      if (l.index !== i + 1) {
        ctx.addIssue({ code: 'custom', path: ['lines', i, 'index'], message: `expected index ${i + 1}` });
      }
    });
    const qids = new Set<string>();
    m.questions.forEach((q, i) => {
      if (qids.has(q.id))
        ctx.addIssue({ code: 'custom', path: ['questions', i, 'id'], message: 'duplicate id' });
      qids.add(q.id);
    });
  });
export type FilmManifest = z.infer<typeof filmManifest>;
export type FilmManifestInput = z.input<typeof filmManifest>;
