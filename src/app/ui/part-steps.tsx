import type { Part } from '../../api/contract';
import { useT } from '../i18n/use-t';
import { Steps } from './steps';

/** The steps of each part, in order: watch → answer → result → report; prpt adds dub → suggestion. */
export const PART_STEPS = {
  prpo: ['watch', 'answer', 'result', 'report'],
  prpt: ['watch', 'answer', 'result', 'dub', 'suggest', 'report'],
} as const satisfies Record<Part, readonly string[]>;

export type StepKey = (typeof PART_STEPS)[Part][number];

/** The steps of a part with their descriptions; `current` marks where the learner is, `done` what is done. */
export function PartSteps({
  part,
  current,
  done,
  compact,
}: {
  part: Part;
  current?: StepKey;
  /** The steps this film's run on screen has done, when known (else: every step before `current`). */
  done?: ReadonlySet<StepKey>;
  compact?: boolean;
}) {
  const { t } = useT();
  const keys: readonly StepKey[] = PART_STEPS[part];
  const steps = keys.map((k) => ({
    key: k,
    label: t(`step.${k}`),
    description: t(`step.${k}.desc`),
  }));
  return (
    <Steps
      steps={steps}
      current={current ? keys.indexOf(current) : -1}
      done={done as ReadonlySet<string> | undefined}
      label={t('steps.label')}
      compact={compact}
    />
  );
}
