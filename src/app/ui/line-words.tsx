import { useState } from 'react';
import type { CheckedWord, WordCheck } from '../../api/contract';
import { wordClip, wordsSummary } from '../../audio/scoring/words-summary';
import { fact, type Lang, word } from '../../i18n';
import { type ClipPart, playClipParts } from '../lib/clip-player';
import styles from './line-words.module.css';

export interface LineWordsProps {
  /** The take's word check; nothing is shown for a take scored before the check existed. */
  check: WordCheck | null | undefined;
  /** The same check of the actor's line, for playing a word from both. */
  actor?: WordCheck | null;
  /** The take's audio and the actor's line (already prefixed URLs), or null when absent. */
  takeUrl: string | null;
  actorUrl: string | null;
  lang: Lang;
}

/**
 * A take's line with each word marked, and one plain sentence on its words (wordsSummary), the same
 * on the dub page, the sound suggestion and the report (the H5 page renders the same reading as HTML,
 * server/h5/words.ts). Said: plain; missed: struck through and dimmed; off: underlined. A word heard
 * in the take and in the actor's line is a button: the actor's word, then the learner's.
 */
export function LineWords({ check, actor, takeUrl, actorUrl, lang }: LineWordsProps) {
  const [playing, setPlaying] = useState<number | null>(null);
  if (!check) return null;
  const summary = word(wordsSummary(check), lang);
  const verdict = check.status === 'unchecked' ? 'notChecked' : check.otherLine ? 'otherLine' : 'checked';
  const play = (i: number, parts: ClipPart[]) => {
    setPlaying(i);
    void playClipParts(parts, () => setPlaying((p) => (p === i ? null : p))).catch(() => setPlaying(null));
  };
  return (
    <div className={styles.words} data-testid="line-words" data-verdict={verdict}>
      {check.status === 'checked' && check.words.length > 0 ? (
        <p className={styles.line} lang={check.language}>
          {check.words.map((w, i) => {
            const clip = takeUrl && actorUrl ? wordClip(check, actor, i) : null;
            const key = `${i}-${w.text}`;
            if (!clip || !takeUrl || !actorUrl) return <WordMark key={key} w={w} lang={lang} />;
            return (
              <button
                key={key}
                type="button"
                className={styles.word}
                data-state={w.state}
                aria-pressed={playing === i}
                aria-label={word(fact('words.play', { word: w.text }), lang)}
                onClick={() =>
                  play(i, [
                    { url: actorUrl, ...clip.actor },
                    { url: takeUrl, ...clip.take },
                  ])
                }
              >
                {w.text}
                <StateText w={w} lang={lang} />
              </button>
            );
          })}
        </p>
      ) : null}
      <p className={styles.summary} data-verdict={verdict}>
        {check.status === 'checked' ? (
          <span className={styles.subScore} data-testid="line-words-score">
            {word(fact('words.subScore', { score: Math.round(check.score) }), lang)}
          </span>
        ) : null}
        <span data-testid="line-words-summary">{summary}</span>
      </p>
    </div>
  );
}

function WordMark({ w, lang }: { w: CheckedWord; lang: Lang }) {
  const text = (
    <>
      {w.text}
      <StateText w={w} lang={lang} />
    </>
  );
  return w.state === 'missed' ? (
    <s className={styles.word} data-state={w.state}>
      {text}
    </s>
  ) : (
    <span className={styles.word} data-state={w.state}>
      {text}
    </span>
  );
}

/** What the mark means, for a screen reader (the mark itself is visual). */
function StateText({ w, lang }: { w: CheckedWord; lang: Lang }) {
  if (w.state === 'said') return null;
  const id = w.state === 'missed' ? 'words.missed' : 'words.off';
  return <span className="visually-hidden">{word(fact(id), lang)}</span>;
}
