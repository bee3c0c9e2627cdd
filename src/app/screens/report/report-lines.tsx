import { Fragment } from 'react';
import type { LineAttemptSummary, ReportLine } from '../../../api/contract';
import { fact, word } from '../../../i18n';
import type { Lang } from '../../i18n';
import { emotionLabel } from '../../i18n/emotion-label';
import { EmotionChip } from '../../ui/emotion-chip';
import { ScoreBadge } from '../../ui/score-badge';
import { signed } from '../../lib/format';
import type { Translate } from '../../i18n/use-t';
import { prefixImage } from '../../../api/image';
import { ReportLineDetail } from './report-line-detail';
import { LineWords } from '../../ui/line-words';
import styles from './report-screen.module.css';

function Attempt({ a, t, lang }: { a: LineAttemptSummary | null; t: Translate; lang: Lang }) {
  if (!a) return <span className="muted">—</span>;
  // No speech in the take: no score and no emotion (src/audio/scoring/aggregate.ts).
  if (a.speechDetected === false) {
    return (
      <span className={styles.cell} data-silent="true">
        {word(fact('take.row.noSpeech'), lang)}
      </span>
    );
  }
  return (
    <span className={styles.cell}>
      <ScoreBadge score={a.overall} label={t('ui.points', { n: Math.round(a.overall) })} />
      {a.clear ? (
        <EmotionChip emotion={a.detected} label={emotionLabel(a.detected, lang)} />
      ) : (
        // Not sure enough to name (or stored before confidence existed): say so, never guess.
        <span className="muted">{word(fact('emotion.unclear'), lang)}</span>
      )}
    </span>
  );
}

/** Dubbing per line: target emotion, first and second take (score + detected emotion), and the change. */
/** The latest take's words, marked on the line (src/app/ui/line-words.tsx). */
function LatestWords({ line, lang }: { line: ReportLine; lang: Lang }) {
  const take = line.second ?? line.first;
  if (!take?.words) return null;
  return (
    <LineWords
      check={take.words}
      actor={take.actorWords}
      takeUrl={take.audioUrl ? prefixImage(take.audioUrl) : null}
      actorUrl={line.referenceAudio ? prefixImage(line.referenceAudio) : null}
      lang={lang}
    />
  );
}

export function ReportLines({ lines, t, lang }: { lines: ReportLine[]; t: Translate; lang: Lang }) {
  return (
    // A wide table scrolls sideways on a phone: focusable so keyboard users can scroll it too.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: scrollable region (axe scrollable-region-focusable)
    <section className={styles.tableWrap} tabIndex={0} aria-label={t('report.linesTable')}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">{t('report.line')}</th>
            <th scope="col">{t('report.target')}</th>
            <th scope="col">{t('report.first')}</th>
            <th scope="col">{t('report.second')}</th>
            <th scope="col">{t('report.improvement')}</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => {
            // Both takes with speech, as the run's improvement counts them (aggregate.ts).
            const scored = (a: LineAttemptSummary | null) => a !== null && a.speechDetected !== false;
            const delta =
              l.first && l.second && scored(l.first) && scored(l.second)
                ? l.second.overall - l.first.overall
                : null;
            const translation = l.translation[lang];
            return (
              <Fragment key={l.subtitlesId}>
                <tr>
                  <td className={styles.num}>{l.index}</td>
                  <th scope="row" className={styles.lineText} style={{ fontWeight: 'normal' }}>
                    <span>
                      {l.speaker ? (
                        <strong>
                          {l.speaker}
                          {t('ui.colon')}
                        </strong>
                      ) : null}
                      {l.text}
                    </span>
                    {translation && translation !== l.text ? (
                      <span className="muted">{translation}</span>
                    ) : null}
                    {!l.first ? <span className="muted">{t('report.notDubbed')}</span> : null}
                    <LatestWords line={l} lang={lang} />
                  </th>
                  <td data-label={t('report.target')}>
                    {l.targetEmotion ? (
                      <EmotionChip emotion={l.targetEmotion} label={emotionLabel(l.targetEmotion, lang)} />
                    ) : (
                      '—'
                    )}
                  </td>
                  <td data-label={t('report.first')}>
                    <Attempt a={l.first} t={t} lang={lang} />
                  </td>
                  <td data-label={t('report.second')}>
                    <Attempt a={l.second} t={t} lang={lang} />
                  </td>
                  <td
                    data-label={t('report.improvement')}
                    className={`${styles.num} ${delta !== null && delta > 0 ? styles.up : delta !== null && delta < 0 ? styles.down : ''}`}
                  >
                    {signed(delta, 0) ?? '—'}
                  </td>
                </tr>
                {scored(l.second ?? l.first) ? (
                  <tr className={styles.detailRow}>
                    <td colSpan={6}>
                      <ReportLineDetail line={l} t={t} lang={lang} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
