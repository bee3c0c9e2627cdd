import { Steps } from '../../ui/steps';
import { PART_STEPS, type Part, type StepKey } from './part';
import { useT } from '../../i18n/use-t';

/** The steps of a part with their descriptions; `current` marks where the learner is. */
export function PartSteps({ part, current, compact }: { part: Part; current?: StepKey; compact?: boolean }) {
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
      label={t('steps.label')}
      compact={compact}
    />
  );
}
