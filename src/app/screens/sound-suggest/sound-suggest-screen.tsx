import { useSignals } from '@preact/signals-react/runtime';
import type { SoundSuggestData } from '../../../api/contract';
import { loadSoundSuggest, soundSuggest } from '../../stores/prpt';
import { Button, ButtonLink } from '../../ui/button';
import { Card } from '../../ui/card';
import { ArrowLeftIcon, ArrowRightIcon } from '../../ui/icons';
import { PageHeader } from '../../ui/page-header';
import { EmptyState, LoadingState } from '../../ui/states';
import { fixed, signed } from '../common/format';
import { PartSteps } from '../common/part-steps';
import { useLoad } from '../common/use-load';
import { type Translate, useT } from '../common/use-t';
import styles from './sound-suggest-screen.module.css';
import { type FigureKey, parseSuggestLine } from './suggest-lines';

const FIGURE_LABEL = {
  scoredLines: 'suggest.fig.scoredLines',
  totalLines: 'suggest.fig.scoredLines',
  average: 'suggest.fig.average',
  improvement: 'suggest.fig.improvement',
  pitchRangeSemitones: 'suggest.fig.pitchRange',
  syllablesPerSecond: 'suggest.fig.rate',
  loudnessRangeDb: 'suggest.fig.loudnessRange',
  emotionMatchRate: 'suggest.fig.emotionMatch',
} as const satisfies Record<FigureKey, string>;

const SHOWN: FigureKey[] = [
  'scoredLines',
  'average',
  'improvement',
  'pitchRangeSemitones',
  'syllablesPerSecond',
  'loudnessRangeDb',
  'emotionMatchRate',
];

export function figureValue(key: FigureKey, f: SoundSuggestData['figures'], t: Translate): string {
  const na = t('ui.notAvailable');
  switch (key) {
    case 'scoredLines':
    case 'totalLines':
      return `${f.scoredLines}/${f.totalLines}`;
    case 'average':
      return f.average === null ? na : String(Math.round(f.average));
    case 'improvement':
      return signed(f.improvement) ?? na;
    case 'pitchRangeSemitones': {
      const v = fixed(f.pitchRangeSemitones);
      return v === null ? na : t('suggest.unit.semitones', { n: v });
    }
    case 'syllablesPerSecond': {
      const v = fixed(f.syllablesPerSecond);
      return v === null ? na : t('suggest.unit.sps', { n: v });
    }
    case 'loudnessRangeDb': {
      const v = fixed(f.loudnessRangeDb);
      return v === null ? na : t('suggest.unit.db', { n: v });
    }
    case 'emotionMatchRate':
      return f.emotionMatchRate === null ? na : `${Math.round(f.emotionMatchRate * 100)}%`;
  }
}

/** The voice interpretation, one readable point per line, each beside the figures it refers to. */
export function SoundSuggestScreen({ id }: { id: string }) {
  useSignals();
  const { t, lang } = useT();
  const { status, reload } = useLoad(() => loadSoundSuggest(id, lang), [id, lang]);
  const data =
    soundSuggest.value?.filmId === id && soundSuggest.value.lang === lang ? soundSuggest.value : null;
  const next = (
    <ButtonLink to="/prpt/report" variant="primary" size="lg" icon={<ArrowRightIcon />}>
      {t('suggest.toReport')}
    </ButtonLink>
  );
  const back = (
    <ButtonLink to={`/prpt/dub/${id}`} variant="ghost" size="sm" icon={<ArrowLeftIcon />}>
      {t('suggest.backToDub')}
    </ButtonLink>
  );
  if (!data || data.lines.length === 0) {
    return (
      <div className="screen" data-screen="sound-suggest">
        <PageHeader back={back} title={t('suggest.title')} />
        {status === 'loading' && !data ? (
          <LoadingState label={t('suggest.loading')} />
        ) : (
          <EmptyState
            title={t('suggest.empty')}
            body={t('suggest.emptyBody')}
            action={
              <div className="row">
                <Button onClick={reload}>{t('ui.reload')}</Button>
                <ButtonLink to={`/prpt/dub/${id}`} variant="primary">
                  {t('suggest.backToDub')}
                </ButtonLink>
              </div>
            }
          />
        )}
      </div>
    );
  }
  const f = data.figures;
  return (
    <div className="screen" data-screen="sound-suggest">
      <PageHeader back={back} title={t('suggest.title')} subtitle={t('suggest.subtitle')} actions={next} />
      <PartSteps part="prpt" current="suggest" compact />
      <div className={styles.layout}>
        <ol className={styles.lines} aria-label={t('suggest.title')}>
          {data.lines.map((raw, i) => {
            const line = parseSuggestLine(raw);
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: lines are static text, possibly repeated
              <li key={i} className={styles.line}>
                <p className={styles.body}>
                  {line.head ? <span className={styles.head}>{line.head}</span> : null}
                  {line.body}
                </p>
                {line.figures.length ? (
                  <dl className={styles.chips}>
                    {line.figures.map((k) => (
                      <div key={k} className={styles.chip}>
                        <dt>{t(FIGURE_LABEL[k])}</dt>
                        <dd>{figureValue(k, f, t)}</dd>
                      </div>
                    ))}
                  </dl>
                ) : null}
              </li>
            );
          })}
        </ol>
        <Card title={t('suggest.figures')} titleId="suggest-figures">
          <dl className={styles.figures}>
            {SHOWN.map((k) => (
              <div key={k} className={styles.figure}>
                <dt>{t(FIGURE_LABEL[k])}</dt>
                <dd>{figureValue(k, f, t)}</dd>
              </div>
            ))}
          </dl>
        </Card>
      </div>
      <div className={styles.next}>{next}</div>
    </div>
  );
}
