import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import type { SoundSuggestData } from '../../src/api/contract';
import type { Database } from '../db/schema';
import type { MediaStorage } from '../storage/media-storage';

/** What the route hands to the AI service's interpreter. */
export interface SoundSuggestInput {
  db: Kysely<Database>;
  storage: MediaStorage;
  userId: string;
  filmId: string;
  lang: 'zh' | 'en';
}

/**
 * THE SEAM for the AI service: `server/ai/interpret.ts` exports
 * `interpretTakes(input: SoundSuggestInput): Promise<SoundSuggestData>`, built from the learner's
 * scored takes (never canned text). Until that file exists this returns null and the route answers 503.
 */
export type InterpretTakes = (input: SoundSuggestInput) => Promise<SoundSuggestData>;

const INTERPRET_FILE = new URL('../ai/interpret.ts', import.meta.url);

export async function loadInterpreter(): Promise<InterpretTakes | null> {
  if (!fs.existsSync(fileURLToPath(INTERPRET_FILE))) return null;
  const mod = (await import(INTERPRET_FILE.href)) as { interpretTakes?: InterpretTakes };
  return typeof mod.interpretTakes === 'function' ? mod.interpretTakes : null;
}
