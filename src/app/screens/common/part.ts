import type { Part } from '../../../api/contract';

export type { Part };

export const prefixOf = (part: Part) => `/${part}` as const;

/** The steps of each part, in order (issue 6: watch → answer → result → report; prpt adds dub → suggestion). */
export const PART_STEPS = {
  prpo: ['watch', 'answer', 'result', 'report'],
  prpt: ['watch', 'answer', 'result', 'dub', 'suggest', 'report'],
} as const satisfies Record<Part, readonly string[]>;

export type StepKey = (typeof PART_STEPS)[Part][number];
