import { useSignals } from '@preact/signals-react/runtime';
import type { FilmWordsNotChecked } from '../../../api/contract';
import { wordsSummary } from '../../../audio/scoring/words-summary';
import { word } from '../../../i18n';
import { lang } from '../../i18n';
import styles from './dub.module.css';

/**
 * Before a first take: the film's words will not be checked (its language has no model, or this
 * server lacks the engine; the film detail's `wordsNotChecked`), in the words each take will then say
 * (wordsSummary of the same `unchecked` reading).
 */
export function WordsNotChecked({ notChecked }: { notChecked: FilmWordsNotChecked | null | undefined }) {
  useSignals();
  if (!notChecked) return null;
  return (
    <p className={styles.hint} data-testid="dub-words-not-checked" data-reason={notChecked.reason}>
      {word(wordsSummary({ status: 'unchecked', ...notChecked }), lang.value)}
    </p>
  );
}
