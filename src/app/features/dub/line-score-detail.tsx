import { useSignals } from '@preact/signals-react/runtime';
import type { SpeechScore } from '../../../api/contract';
import { parseSpeechScore } from '../../../api/contract/parse-score';
import { DELIVERY_LIKENESS_NOTE, NO_CLEAR_EMOTION } from '../../../audio/scoring/labels';
import { lang, t } from '../../i18n';
import { emotionLabel } from '../../i18n/emotion-label';
import { LazyContourChart, LazySubScoreRadar } from '../../ui/charts/lazy';
import { EmotionChip } from '../../ui/emotion-chip';
import { ScoreBadge } from '../../ui/score-badge';
import styles from './dub.module.css';

function range(values: ReadonlyArray<number | null> | null): string {
  if (!values) return '—';
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (v === null) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return hi >= lo ? (hi - lo).toFixed(1) : '—';
}

function AttemptSummary({ score, title }: { score: SpeechScore; title: string }) {
  const { emotion } = score;
  return (
    <section className={styles.attempt} aria-label={title}>
      <h4 className={styles.attemptTitle}>
        {title}
        <ScoreBadge
          score={score.overall}
          label={`${title} ${t('score.overall')} ${Math.round(score.overall)}`}
        />
      </h4>
      <p className={styles.emotions}>
        {emotion.clear ? (
          <EmotionChip
            emotion={emotion.detected}
            caption={t('dub.detected')}
            label={`${emotionLabel(emotion.detected)} ${Math.round((emotion.confidence ?? 0) * 100)}%`}
          />
        ) : (
          // Below the model's label threshold (or a result from before confidence existed): the
          // category is not named; the tips carry the energy gap instead.
          <span>
            {t('dub.detected')} {NO_CLEAR_EMOTION[lang.value]}
          </span>
        )}
        {emotion.target ? (
          <EmotionChip
            emotion={emotion.target}
            caption={t('dub.target')}
            label={emotionLabel(emotion.target)}
          />
        ) : null}
      </p>
      {score.tips.length ? (
        <ul className={styles.tips} aria-label={t('dub.tips')}>
          {score.tips.map((tip) => (
            <li key={tip.en}>{lang.value === 'en' ? tip.en : tip.zh}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export interface LineScoreDetailProps {
  firstJson: string | undefined;
  secondJson: string | undefined;
}

/**
 * What a scored line tells the learner: both attempts side by side (score, detected vs target emotion,
 * tips), the sub-scores of the latest attempt drawn over the earlier one, and the latest take's pitch
 * and loudness over the actor's, time-aligned. Charts load with the first opened panel only.
 */
export function LineScoreDetail({ firstJson, secondJson }: LineScoreDetailProps) {
  useSignals();
  const first = parseSpeechScore(firstJson);
  const second = parseSpeechScore(secondJson);
  const latest = second ?? first;
  if (!latest) return null;
  const s = latest.scores;
  return (
    <div className={styles.scoreDetail} data-testid="line-score-detail">
      <div className={styles.attempts}>
        {first ? <AttemptSummary score={first} title={t('report.first')} /> : null}
        {second ? <AttemptSummary score={second} title={t('report.second')} /> : null}
      </div>
      {latest.deliveryLikeness ? <p className={styles.tips}>{DELIVERY_LIKENESS_NOTE[lang.value]}</p> : null}
      <div className={styles.charts}>
        <LazySubScoreRadar
          scores={s}
          previous={second && first ? first.scores : null}
          height={240}
          labels={{
            title: t('score.radar'),
            summary: t('score.radarSummary', {
              emotion: Math.round(s.emotion),
              intonation: Math.round(s.intonation),
              energy: Math.round(s.energy),
              timing: Math.round(s.timing),
              quality: Math.round(s.quality),
            }),
            axes: {
              emotion: t('score.emotion'),
              intonation: t('score.intonation'),
              energy: t('score.energy'),
              timing: t('score.timing'),
              quality: t('score.quality'),
            },
            current: second ? t('report.second') : t('report.first'),
            previous: t('report.first'),
            tableLabel: t('ui.showTable'),
            fallback: t('ui.chartFallback'),
          }}
        />
        <LazyContourChart
          contours={latest.contours}
          height={260}
          labels={{
            title: t('contour.title'),
            summary: t('contour.summary', {
              learner: range(latest.contours.learnerPitch),
              actor: range(latest.contours.actorPitch),
            }),
            learner: t('ui.learner'),
            actor: t('ui.actor'),
            pitch: t('contour.pitch'),
            loudness: t('contour.loudness'),
            seconds: t('contour.seconds'),
            fallback: t('ui.chartFallback'),
          }}
        />
      </div>
    </div>
  );
}
