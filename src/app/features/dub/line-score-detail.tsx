import { useSignals } from '@preact/signals-react/runtime';
import type { SpeechScore } from '../../../api/contract';
import { parseSpeechScore } from '../../../api/contract/parse-score';
import { targetNamed } from '../../../audio/scoring/labels';
import { intensity } from '../../../audio/scoring/tips';
import { type Fact, fact, type Lang, word } from '../../../i18n';
import { lang, t } from '../../i18n';
import { emotionLabel } from '../../i18n/emotion-label';
import { LazyContourChart, LazySubScoreRadar } from '../../ui/charts/lazy';
import { EmotionChip } from '../../ui/emotion-chip';
import { MelodyVersions } from '../../ui/melody-versions';
import { ScoreBadge } from '../../ui/score-badge';
import { LineWords } from '../../ui/line-words';
import styles from './dub.module.css';

/** The take's statements in the learner's language: its facts, or the worded tips of an older result. */
function statementsOf(score: SpeechScore, l: Lang): string[] {
  if (score.statements) return score.statements.map((s) => word(s as Fact, l));
  return (score.tips ?? []).map((tip) => tip[l]);
}

const num = (v: number | null | undefined, digits = 1) =>
  typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : '—';

/**
 * The raw figures behind the statements ("see the data"): both voices' measures and the comparison,
 * in the units they were measured in. The statements above name one of these each, in plain words.
 */
function DataTable({ score }: { score: SpeechScore }) {
  const l = score.prosody.learner;
  const a = score.prosody.actor;
  const c = score.comparison;
  const rows: Array<[string, string, string]> = [
    [t('data.duration'), num(l.durationMs / 1000), num(a ? a.durationMs / 1000 : null)],
    [t('data.speech'), num(l.speechMs / 1000), num(a ? a.speechMs / 1000 : null)],
    [t('data.pitchMedian'), num(l.pitchMedianHz, 0), num(a?.pitchMedianHz, 0)],
    [t('data.pitchRange'), num(l.pitchRangeSemitones), num(a?.pitchRangeSemitones)],
    [t('data.loudnessRange'), num(l.loudnessRangeDb), num(a?.loudnessRangeDb)],
    [t('data.rate'), num(l.syllablesPerSecond), num(a?.syllablesPerSecond)],
    [t('data.pauses'), String(l.pauseCount), a ? String(a.pauseCount) : '—'],
    [
      t('data.intensity'),
      `${intensity(score.emotion.arousal)} (${num(score.emotion.arousal, 2)})`,
      typeof score.emotion.targetArousal === 'number'
        ? `${intensity(score.emotion.targetArousal)} (${num(score.emotion.targetArousal, 2)})`
        : '—',
    ],
  ];
  const compared: Array<[string, string]> = c
    ? [
        [t('data.durationRatio'), num(c.durationRatio, 2)],
        [t('data.onsetDelay'), num(c.onsetDelaySeconds, 2)],
        [t('data.pitchDistance'), num(c.pitchDistanceSt)],
        [t('data.pitchCorrelation'), num(c.pitchCorrelation, 2)],
        [t('data.loudnessDistance'), num(c.loudnessDistanceDb)],
        [t('data.loudnessCorrelation'), num(c.loudnessCorrelation, 2)],
      ]
    : [];
  if (score.quality.snrDb !== null) compared.push([t('data.snr'), num(score.quality.snrDb, 0)]);
  return (
    <details className={styles.tips} data-testid="take-data">
      <summary>{t('data.show')}</summary>
      <table>
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col">{t('ui.learner')}</th>
            <th scope="col">{t('ui.actor')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, mine, theirs]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>{mine}</td>
              <td>{theirs}</td>
            </tr>
          ))}
          {compared.map(([label, value]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td colSpan={2}>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

function AttemptSummary({ score, title }: { score: SpeechScore; title: string }) {
  const { emotion } = score;
  const tips = statementsOf(score, lang.value);
  // A take without speech is no score (aggregate.ts): no 0 badge and no figures read from it.
  const heard = score.quality.speechDetected;
  return (
    <section className={styles.attempt} aria-label={title}>
      <h4 className={styles.attemptTitle}>
        {title}
        {heard ? (
          <ScoreBadge
            score={score.overall}
            label={`${title} ${t('score.overall')} ${Math.round(score.overall)}`}
          />
        ) : null}
      </h4>
      <p className={styles.emotions}>
        {!score.quality.speechDetected ? (
          <span>{word(fact('take.row.noSpeech'), lang.value)}</span>
        ) : (emotion.named ?? emotion.clear) ? (
          // Named only where the class held on voices the model never heard (docs/emotion.md); a
          // percentage only when a calibrated one holds there too.
          <EmotionChip
            emotion={emotion.detected}
            caption={t('dub.detected')}
            label={
              typeof emotion.confidence === 'number'
                ? `${emotionLabel(emotion.detected)} ${Math.round(emotion.confidence * 100)}%`
                : emotionLabel(emotion.detected)
            }
          />
        ) : (
          // Below the model's label threshold (or a result from before confidence existed): the
          // category is not named; the tips carry the energy gap instead. The value says it all
          // ("no clear emotion heard"): a "Heard" caption before it would repeat it.
          <span>{word(fact('emotion.unclear'), lang.value)}</span>
        )}
        {emotion.target && targetNamed(emotion) ? (
          <EmotionChip
            emotion={emotion.target}
            caption={t('dub.target')}
            label={emotionLabel(emotion.target)}
          />
        ) : null}
        {score.quality.speechDetected && typeof emotion.voiceTakes === 'number' ? (
          <span data-testid="emotion-against">
            {word(fact(emotion.voiceTakes > 0 ? 'take.against.own' : 'take.against.typical'), lang.value)}
          </span>
        ) : null}
      </p>
      {tips.length ? (
        <ul className={styles.tips} aria-label={t('dub.tips')}>
          {tips.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </ul>
      ) : null}
      {heard ? <DataTable score={score} /> : null}
    </section>
  );
}

/**
 * The latest take's sub-scores over the earlier attempt's, and its pitch and loudness over the
 * actor's, time-aligned, with the melody version's pitch as a third line.
 */
function TakeCharts({
  latest,
  previous,
  second,
}: {
  latest: SpeechScore;
  previous: SpeechScore['scores'] | null;
  /** The latest take is the second attempt. */
  second: boolean;
}) {
  const s = latest.scores;
  return (
    <div className={styles.charts}>
      <LazySubScoreRadar
        scores={s}
        previous={previous}
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
          // The same pitch range the statements and the data table quote (the take's prosody figures).
          summary: t('contour.summary', {
            learner: num(latest.prosody.learner.pitchRangeSemitones),
            actor: num(latest.prosody.actor?.pitchRangeSemitones),
          }),
          learner: t('ui.learner'),
          actor: t('ui.actor'),
          melody: word(fact('melody.yours'), lang.value),
          pitch: t('contour.pitch'),
          loudness: t('contour.loudness'),
          seconds: t('contour.seconds'),
          fallback: t('ui.chartFallback'),
        }}
      />
    </div>
  );
}

export interface LineScoreDetailProps {
  firstJson: string | undefined;
  secondJson: string | undefined;
  /** The actor's cut line, or null when the line has none. */
  actorUrl: string | null;
  /** The latest take, playable (stores/takes/sub-titles-scores.ts `playableSource`), or null. */
  takeUrl: string | null;
}

/**
 * What a scored line tells the learner: both attempts side by side (score, detected vs target emotion,
 * tips), the latest take three ways (the actor, the take, the take with the actor's melody), the
 * sub-scores of the latest attempt drawn over the earlier one, and the latest take's pitch and
 * loudness over the actor's, time-aligned, with the melody version's pitch as a third line. Charts load with the first opened panel only.
 */
export function LineScoreDetail({ firstJson, secondJson, actorUrl, takeUrl }: LineScoreDetailProps) {
  useSignals();
  const first = parseSpeechScore(firstJson);
  const second = parseSpeechScore(secondJson);
  const latest = second ?? first;
  if (!latest) return null;
  // The charts draw the latest take's sub-scores and contours: none for a take without speech.
  const heard = latest.quality.speechDetected;
  const previous = second && first?.quality.speechDetected ? first.scores : null;
  return (
    <div className={styles.scoreDetail} data-testid="line-score-detail">
      <div className={styles.attempts}>
        {first ? <AttemptSummary score={first} title={t('report.first')} /> : null}
        {second ? <AttemptSummary score={second} title={t('report.second')} /> : null}
      </div>
      <LineWords
        check={latest.words}
        actor={latest.actorWords}
        takeUrl={takeUrl}
        actorUrl={actorUrl}
        lang={lang.value}
      />
      <MelodyVersions actorUrl={actorUrl} takeUrl={takeUrl} melody={latest.melody} lang={lang.value} />
      {latest.emotion.voiceTakes === 0 ? (
        <p className={styles.tips}>{word(fact('take.readCold'), lang.value)}</p>
      ) : null}
      {latest.deliveryLikeness ? (
        <p className={styles.tips}>{word(fact('take.deliveryNote'), lang.value)}</p>
      ) : null}
      {heard ? <TakeCharts latest={latest} previous={previous} second={Boolean(second)} /> : null}
    </div>
  );
}
