import { createContext, useContext } from 'react';
import type { Part } from '../../../api/contract';

export type { Part };

export const prefixOf = (part: Part) => `/${part}` as const;

/**
 * The report of one training run: prpt by `?runId=`, prpo by its path with `?by=run` (the path's id is
 * then a run id, not an answer record id).
 */
export const runReportPath = (part: Part, runId: string) =>
  part === 'prpt'
    ? `/prpt/report?runId=${encodeURIComponent(runId)}`
    : `/prpo/report/${encodeURIComponent(runId)}?by=run`;

/** The steps of each part, in order: watch → answer → result → report; prpt adds dub → suggestion. */
export const PART_STEPS = {
  prpo: ['watch', 'answer', 'result', 'report'],
  prpt: ['watch', 'answer', 'result', 'dub', 'suggest', 'report'],
} as const satisfies Record<Part, readonly string[]>;

export type StepKey = (typeof PART_STEPS)[Part][number];

/** The part whose layout a screen is rendered in (set by the part layout for its routes). */
export const PartContext = createContext<Part | null>(null);

export function usePart(): Part {
  const part = useContext(PartContext);
  if (!part) throw new Error('usePart: this screen is not inside a part layout');
  return part;
}
