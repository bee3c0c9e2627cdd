import type { Lang } from '../i18n';

/** A film's title in the UI language: the English title in English when the film has one. */
export function filmTitle(film: { title: string; titleEn?: string | null }, lang: Lang): string {
  return lang === 'en' && film.titleEn ? film.titleEn : film.title;
}
