/** Short constructors so scene files read like the quiz they describe. */
import type { Localized } from '../../../src/api/contract';
import type { ManifestQuestion } from '../../../server/films/manifest';

type Options = Record<string, Localized>;

function toOptions(options: Options) {
  return Object.entries(options).map(([id, label]) => ({ id, label }));
}

export function single(
  id: string,
  prompt: Localized,
  options: Options,
  answer: string,
  explanation: Localized,
  points: number,
): ManifestQuestion {
  return {
    id,
    kind: 'single',
    prompt,
    options: toOptions(options),
    answer: [answer],
    explanation,
    required: true,
    points,
  };
}

export function multiple(
  id: string,
  prompt: Localized,
  options: Options,
  answer: string[],
  explanation: Localized,
  points: number,
): ManifestQuestion {
  return {
    id,
    kind: 'multiple',
    prompt,
    options: toOptions(options),
    answer,
    explanation,
    required: true,
    points,
  };
}

/** Open question: no options and no key; the explanation is the model answer shown afterwards. */
export function text(
  id: string,
  prompt: Localized,
  explanation: Localized,
  points: number,
): ManifestQuestion {
  return { id, kind: 'text', prompt, options: [], answer: [], explanation, required: false, points };
}
