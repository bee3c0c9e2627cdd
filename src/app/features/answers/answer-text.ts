import type { Question } from '../../../api/contract';
import type { Lang } from '../../i18n';

/** An answer as words: option ids become their labels; free text stays as typed. */
export function answerText(
  value: string | string[] | null | undefined,
  question: Pick<Question, 'options'> | undefined,
  lang: Lang,
): string | null {
  if (value === null || value === undefined) return null;
  const ids = Array.isArray(value) ? value : [value];
  if (ids.length === 0 || (ids.length === 1 && !ids[0].trim())) return null;
  const label = (id: string) => {
    const o = question?.options.find((x) => x.id === id);
    return o ? o.label[lang] || o.label.zh : id;
  };
  return ids.map(label).join(lang === 'zh' ? '；' : '; ');
}
