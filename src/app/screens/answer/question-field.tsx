import type { Question } from '../../../api/contract';
import type { Lang } from '../../i18n';
import type { Translate } from '../../i18n/use-t';
import styles from './answer-screen.module.css';
import type { AnswerValue } from '../../features/answers/answer-storage';

export const TEXT_MAX = 2000;

export interface QuestionFieldProps {
  question: Question;
  index: number;
  value: AnswerValue | undefined;
  error: string | null;
  onChange: (value: AnswerValue) => void;
  t: Translate;
  lang: Lang;
}

/** One question as a fieldset: radios, checkboxes or a text area, with its error tied to it. */
export function QuestionField({ question: q, index, value, error, onChange, t, lang }: QuestionFieldProps) {
  const base = `q-${q.id}`;
  const errorId = `${base}-error`;
  const prompt = q.prompt[lang] || q.prompt.zh;
  const legend = (
    <legend className={styles.legend}>
      <span className={styles.qMeta}>
        <span>{t('answer.question', { n: index + 1 })}</span>
        <span>·</span>
        <span>{t(`answer.kind.${q.kind}`)}</span>
        {q.required ? <span className={styles.required}>· {t('answer.required')}</span> : null}
      </span>
      <span>{prompt}</span>
    </legend>
  );
  const errorLine = error ? (
    <span id={errorId} className={styles.error}>
      {error}
    </span>
  ) : null;

  if (q.kind === 'text') {
    const text = typeof value === 'string' ? value : '';
    return (
      <fieldset className={styles.question} data-invalid={error ? 'true' : undefined} id={base}>
        {legend}
        <textarea
          id={`${base}-text`}
          className={styles.textarea}
          value={text}
          maxLength={TEXT_MAX}
          placeholder={t('answer.textPlaceholder')}
          aria-label={prompt}
          aria-required={q.required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
        <span className={styles.counter} aria-hidden="true">
          {t('answer.chars', { n: text.length, max: TEXT_MAX })}
        </span>
        {errorLine}
      </fieldset>
    );
  }

  const multiple = q.kind === 'multiple';
  const selected = Array.isArray(value) ? value : typeof value === 'string' && value ? [value] : [];
  return (
    <fieldset
      className={styles.question}
      data-invalid={error ? 'true' : undefined}
      id={base}
      aria-describedby={error ? errorId : undefined}
    >
      {legend}
      <div className={styles.options}>
        {q.options.map((o) => {
          const checked = selected.includes(o.id);
          return (
            <label key={o.id} className={styles.option}>
              <input
                type={multiple ? 'checkbox' : 'radio'}
                name={base}
                value={o.id}
                checked={checked}
                required={!multiple && q.required}
                aria-invalid={error ? true : undefined}
                onChange={() => {
                  if (!multiple) return onChange(o.id);
                  onChange(checked ? selected.filter((x) => x !== o.id) : [...selected, o.id]);
                }}
              />
              <span>{o.label[lang] || o.label.zh}</span>
            </label>
          );
        })}
      </div>
      {errorLine}
    </fieldset>
  );
}
