import type { ReactNode } from 'react';
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

/** The question's number, kind, whether it is required, and its prompt. */
function QuestionLegend({
  q,
  index,
  prompt,
  t,
}: {
  q: Question;
  index: number;
  prompt: string;
  t: Translate;
}) {
  return (
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
}

/** What a field's parts share: its ids, its prompt in the learner's language, its error line. */
interface FieldParts {
  base: string;
  errorId: string;
  prompt: string;
  legend: ReactNode;
  errorLine: ReactNode;
}

/** A text question: a text area with its character count. */
function TextAnswer({
  q,
  value,
  error,
  onChange,
  t,
  parts,
}: QuestionFieldProps & { q: Question; parts: FieldParts }) {
  const { base, errorId, prompt } = parts;
  const text = typeof value === 'string' ? value : '';
  return (
    <fieldset className={styles.question} data-invalid={error ? 'true' : undefined} id={base}>
      {parts.legend}
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
      {parts.errorLine}
    </fieldset>
  );
}

/** A single or multiple choice question: radios or checkboxes. */
function ChoiceAnswer({
  q,
  value,
  error,
  onChange,
  lang,
  parts,
}: QuestionFieldProps & { q: Question; parts: FieldParts }) {
  const { base, errorId } = parts;
  const multiple = q.kind === 'multiple';
  const selected = Array.isArray(value) ? value : typeof value === 'string' && value ? [value] : [];
  return (
    <fieldset
      className={styles.question}
      data-invalid={error ? 'true' : undefined}
      id={base}
      aria-describedby={error ? errorId : undefined}
    >
      {parts.legend}
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
      {parts.errorLine}
    </fieldset>
  );
}

/** One question as a fieldset: radios, checkboxes or a text area, with its error tied to it. */
export function QuestionField(props: QuestionFieldProps) {
  const { question: q, index, error, t, lang } = props;
  const base = `q-${q.id}`;
  const errorId = `${base}-error`;
  const prompt = q.prompt[lang] || q.prompt.zh;
  const parts: FieldParts = {
    base,
    errorId,
    prompt,
    legend: <QuestionLegend q={q} index={index} prompt={prompt} t={t} />,
    errorLine: error ? (
      <span id={errorId} className={styles.error}>
        {error}
      </span>
    ) : null,
  };
  return q.kind === 'text' ? (
    <TextAnswer {...props} q={q} parts={parts} />
  ) : (
    <ChoiceAnswer {...props} q={q} parts={parts} />
  );
}
