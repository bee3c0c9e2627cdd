/**
 * The film folder manifest (film.json) as the demo builder writes it. The producer's importer owns
 * the authoritative schema (server/films/manifest.ts); this one mirrors the agreed format so the
 * builder can check its own output before writing it.
 */
import { z } from 'zod';
import { emotion, localized, part } from '../../src/api/contract';

const option = z.object({ id: z.string().min(1), label: localized });

export const manifestQuestion = z.object({
  id: z.string().min(1),
  kind: z.enum(['single', 'multiple', 'text']),
  prompt: localized,
  options: z.array(option),
  answer: z.array(z.string()),
  explanation: localized,
  required: z.boolean(),
  points: z.number().int().min(0),
});
export type ManifestQuestion = z.infer<typeof manifestQuestion>;

export const filmManifest = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/),
  title: z.string().min(1),
  titleEn: z.string().min(1),
  synopsis: localized,
  parts: z.array(part).min(1),
  roles: z.array(z.object({ name: z.string().min(1), description: localized })).min(1),
  video: z.string().min(1),
  poster: z.string().min(1),
  subtitles: z.string().min(1),
  lines: z
    .array(
      z.object({
        index: z.number().int().min(1),
        speaker: z.string().min(1),
        translation: localized,
        targetEmotion: emotion,
      }),
    )
    .min(1),
  questions: z.array(manifestQuestion).min(1),
});
export type FilmManifest = z.infer<typeof filmManifest>;
