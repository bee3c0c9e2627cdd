import type { Lang } from '../i18n';

/** A film's title in the UI language: the English title in English when the film has one. */
export function filmTitle(film: { title: string; titleEn?: string | null }, lang: Lang): string {
  return lang === 'en' && film.titleEn ? film.titleEn : film.title;
}

/** The film's title in the other language, as a smaller second line (undefined when it has one title). */
export function otherFilmTitle(
  film: { title: string; titleEn?: string | null },
  lang: Lang,
): string | undefined {
  const other = lang === 'en' ? film.title : film.titleEn;
  return other && other !== filmTitle(film, lang) ? other : undefined;
}
