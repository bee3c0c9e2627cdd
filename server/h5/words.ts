/**
 * A take's words on the H5 page: the same reading as the app's component (src/app/ui/line-words.tsx,
 * src/audio/scoring/words-summary.ts) as static HTML. Said: plain; missed: struck through and dimmed,
 * with text for a screen reader; off: underlined (the rules: server/h5/html.ts, `.words`). The page
 * has no scripts, so its words are not played.
 */
import type { CheckedWord, WordCheck } from '../../src/api/contract';
import { wordsSummary } from '../../src/audio/scoring/words-summary';
import { fact, type Lang, word } from '../../src/i18n';
import { html, type Raw } from './html';

function mark(w: CheckedWord, lang: Lang): Raw {
  if (w.state === 'missed')
    return html`<s class="w">${w.text}<span class="sr">${word(fact('words.missed'), lang)}</span></s>`;
  if (w.state === 'off')
    return html`<span class="w off">${w.text}<span class="sr">${word(fact('words.off'), lang)}</span></span>`;
  return html`<span class="w">${w.text}</span>`;
}

/** The line's words marked and the one-line summary, or nothing for a take scored before the check. */
export function lineWordsHtml(check: WordCheck | undefined, lang: Lang): Raw | string {
  if (!check) return '';
  const marked =
    check.status === 'checked' && check.words.length > 0
      ? html`<p lang="${check.language}">${check.words.map((w) => mark(w, lang))}</p>`
      : '';
  const score =
    check.status === 'checked'
      ? html`<strong>${word(fact('words.subScore', { score: Math.round(check.score) }), lang)}</strong> `
      : '';
  return html`<div class="words" data-words="${check.status === 'checked' ? (check.otherLine ? 'otherLine' : 'checked') : 'notChecked'}">${marked}<p class="sum">${score}${word(wordsSummary(check), lang)}</p></div>`;
}
