import type { Question, SaveQuestionRecordData } from '../../../api/contract';
import { readJson, writeJson } from '../../stores/storage';
import type { Part } from '../../lib/paths';

/**
 * What the answer and result screens keep between pages, in sessionStorage: it survives a reload,
 * dies with the tab, and `clearLocalData()` (logout, 1002, kiosk idle) wipes it with everything else.
 * Read on each mount rather than held in a signal, so nothing outlives a wipe in memory.
 */
export type AnswerValue = string | string[];
export type Draft = Record<string, AnswerValue>;

const draftKey = (part: Part, filmId: string) => `screens.answerDraft.${part}.${filmId}`;
const resultKey = (part: Part) => `screens.lastResult.${part}`;
const startKey = (part: Part, filmId: string) => `screens.filmStart.${part}.${filmId}`;

export function readDraft(part: Part, filmId: string): Draft | null {
  return readJson<Draft>(sessionStorage, draftKey(part, filmId));
}

export function writeDraft(part: Part, filmId: string, draft: Draft | null): void {
  writeJson(sessionStorage, draftKey(part, filmId), draft);
}

export interface LastResult {
  filmId: string;
  filmTitle: string;
  filmTitleEn?: string;
  questions: Question[];
  data: SaveQuestionRecordData;
}

export function readLastResult(part: Part): LastResult | null {
  return readJson<LastResult>(sessionStorage, resultKey(part));
}

export function writeLastResult(part: Part, result: LastResult): void {
  writeJson(sessionStorage, resultKey(part), result);
}

/** Marks when the learner opened a film (kept if already set), for the training time in the report. */
export function markFilmStart(part: Part, filmId: string): void {
  if (readJson<number>(sessionStorage, startKey(part, filmId)) === null) {
    writeJson(sessionStorage, startKey(part, filmId), Date.now());
  }
}

export function filmElapsedMs(part: Part, filmId: string): number | undefined {
  const start = readJson<number>(sessionStorage, startKey(part, filmId));
  if (start === null) return undefined;
  return Math.max(0, Math.min(24 * 3600 * 1000, Date.now() - start));
}

/** True when the value counts as an answer (non-blank text, at least one option). */
export function isAnswered(v: AnswerValue | undefined): boolean {
  if (v === undefined) return false;
  return Array.isArray(v) ? v.length > 0 : v.trim().length > 0;
}

/** Required questions without an answer, in order. */
export function missingRequired(questions: readonly Question[], draft: Draft): string[] {
  return questions.filter((q) => q.required && !isAnswered(draft[q.id])).map((q) => q.id);
}
