import type { LineAttemptSummary, ReportLine } from '../../../api/contract';
import type { Lang } from '../../i18n';
import { EmotionChip } from '../../ui/emotion-chip';
import { ScoreBadge } from '../../ui/score-badge';
import { signed } from '../common/format';
import type { Translate } from '../common/use-t';
import styles from './report-screen.module.css';

function Attempt({ a, t }: { a: LineAttemptSummary | null; t: Translate }) {
  if (!a) return <span className="muted">—</span>;
  return (
    <span className={styles.cell}>
      <ScoreBadge score={a.overall} label={t('ui.points', { n: Math.round(a.overall) })} />
      <EmotionChip emotion={a.detected} label={t(`emotion.${a.detected}`)} />
    </span>
  );
}

/** Dubbing per line: target emotion, first and second take (score + detected emotion), and the change. */
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
            const delta = l.first && l.second ? l.second.overall - l.first.overall : null;
            const translation = l.translation[lang];
            return (
              <tr key={l.subtitlesId}>
                <td className={styles.num}>{l.index}</td>
                <th scope="row" className={styles.lineText} style={{ fontWeight: 'normal' }}>
                  <span>
                    {l.speaker ? <strong>{l.speaker}：</strong> : null}
                    {l.text}
                  </span>
                  {translation && translation !== l.text ? (
                    <span className="muted">{translation}</span>
                  ) : null}
                  {!l.first ? <span className="muted">{t('report.notDubbed')}</span> : null}
                </th>
                <td data-label={t('report.target')}>
                  {l.targetEmotion ? (
                    <EmotionChip emotion={l.targetEmotion} label={t(`emotion.${l.targetEmotion}`)} />
                  ) : (
                    '—'
                  )}
                </td>
                <td data-label={t('report.first')}>
                  <Attempt a={l.first} t={t} />
                </td>
                <td data-label={t('report.second')}>
                  <Attempt a={l.second} t={t} />
                </td>
                <td
                  data-label={t('report.improvement')}
                  className={`${styles.num} ${delta !== null && delta > 0 ? styles.up : delta !== null && delta < 0 ? styles.down : ''}`}
                >
                  {signed(delta, 0) ?? '—'}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
