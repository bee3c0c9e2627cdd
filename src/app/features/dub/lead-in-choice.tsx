import { useSignals } from '@preact/signals-react/runtime';
import { t } from '../../i18n';
import styles from './lead-in.module.css';
import { type LeadInSound, leadInSound, setLeadInSound } from './lead-in';

/** Whose voice a retake's lead-in plays: the actor's, or the learner's own take of the line before. */
export function LeadInChoice({ disabled }: { disabled?: boolean }) {
  useSignals();
  const value = leadInSound.value;
  const option = (sound: LeadInSound) => (
    <label>
      <input
        type="radio"
        name="lead-in-sound"
        value={sound}
        checked={value === sound}
        disabled={disabled}
        onChange={() => setLeadInSound(sound)}
        data-testid={`lead-in-${sound}`}
      />{' '}
      {t(`leadIn.${sound}`)}
    </label>
  );
  return (
    <fieldset className={styles.choice}>
      <legend>{t('leadIn.label')}</legend>
      {option('actor')}
      {option('take')}
    </fieldset>
  );
}
