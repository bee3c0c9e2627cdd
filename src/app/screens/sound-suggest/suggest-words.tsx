import type { SuggestWordsLine } from '../../../api/contract';
import { prefixImage } from '../../../api/image';
import { fact, type Lang, word } from '../../../i18n';
import { Card } from '../../ui/card';
import { LineWords } from '../../ui/line-words';

/**
 * The run's lines whose words need another go (get_sounds_interpretation `words`), each marked word
 * by word as on the dub page and the report; nothing when every checked line was said in full.
 */
export function SuggestWords({ lines, lang }: { lines: SuggestWordsLine[] | undefined; lang: Lang }) {
  if (!lines?.length) return null;
  const title = word(fact('words.suggestHeading'), lang);
  return (
    <Card title={title} titleId="suggest-words">
      <ol data-testid="suggest-words">
        {lines.map((l) => (
          <li key={l.subtitlesId} aria-label={word(fact('words.suggestLine', { index: l.index }), lang)}>
            <LineWords
              check={l.words}
              actor={l.actorWords}
              takeUrl={l.audioUrl ? prefixImage(l.audioUrl) : null}
              actorUrl={l.referenceAudio ? prefixImage(l.referenceAudio) : null}
              lang={lang}
            />
          </li>
        ))}
      </ol>
    </Card>
  );
}
