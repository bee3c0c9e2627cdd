import { useSignals } from '@preact/signals-react/runtime';
import { useParams } from 'react-router-dom';
import type { SoundSuggestData } from '../../../api/contract';
import { loadSoundSuggest, soundSuggest } from './sound-suggest-state';

export type FigureKey = keyof SoundSuggestData['figures'];
import { Button, ButtonLink } from '../../ui/button';
import { Card } from '../../ui/card';
import { ArrowLeftIcon, ArrowRightIcon } from '../../ui/icons';
import { PageHeader } from '../../ui/page-header';
import { EmptyState, LoadingState } from '../../ui/states';
import { fixed, signed } from '../../lib/format';
import { PartSteps } from '../../ui/part-steps';
import { useLoad } from '../../lib/use-load';
import { paths } from '../../lib/paths';
import { type Translate, useT } from '../../i18n/use-t';
import styles from './sound-suggest-screen.module.css';
import { SuggestWords } from './suggest-words';

const FIGURE_LABEL = {
  scoredLines: 'suggest.fig.scoredLines',
  totalLines: 'suggest.fig.scoredLines',
  dubbedLines: 'suggest.fig.dubbedLines',
  silentLines: 'suggest.fig.silentLines',
  emotionAverage: 'suggest.fig.emotionAverage',
  average: 'suggest.fig.average',
  improvement: 'suggest.fig.improvement',
  pitchRangeSemitones: 'suggest.fig.pitchRange',
  syllablesPerSecond: 'suggest.fig.rate',
  loudnessRangeDb: 'suggest.fig.loudnessRange',
  emotionMatchRate: 'suggest.fig.emotionMatch',
  durationRatio: 'suggest.fig.durationRatio',
} as const satisfies Record<FigureKey, string>;

const SHOWN: FigureKey[] = [
  'dubbedLines',
  'silentLines',
  'scoredLines',
  'average',
  'improvement',
  'pitchRangeSemitones',
  'syllablesPerSecond',
  'durationRatio',
  'loudnessRangeDb',
  'emotionMatchRate',
  'emotionAverage',
];

export function figureValue(key: FigureKey, f: SoundSuggestData['figures'], t: Translate): string {
  const na = t('ui.notAvailable');
  switch (key) {
    case 'scoredLines':
    case 'totalLines':
      return `${f.scoredLines}/${f.totalLines}`;
    case 'dubbedLines':
      return `${f.dubbedLines ?? f.scoredLines}/${f.totalLines}`;
    case 'silentLines':
      return String(f.silentLines ?? 0);
    case 'emotionAverage':
      return f.emotionAverage == null ? na : String(Math.round(f.emotionAverage));
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
    case 'durationRatio': {
      const v = fixed(f.durationRatio ?? null, 2);
      return v === null ? na : t('suggest.unit.times', { n: v });
    }
  }
}

const SUB_SCORE = ['emotion', 'intonation', 'energy', 'timing', 'quality'] as const;
type SubScoreKey = (typeof SUB_SCORE)[number];
const isFigureKey = (k: string): k is FigureKey => k in FIGURE_LABEL;
const isSubScore = (k: string): k is SubScoreKey => (SUB_SCORE as readonly string[]).includes(k);

/**
 * A figure a statement quotes, by its path into the answer (`figures.average`, `subScores.intonation`,
 * `pitchDistanceSt`): its label and the value as the text rounds it. One source for each number: the
 * chip beside a statement shows exactly the figure that statement quotes. Null for an unknown path.
 */
export function figureAt(
  path: string,
  data: SoundSuggestData,
  t: Translate,
): { label: string; value: string } | null {
  const [root, key = ''] = path.split('.');
  if (root === 'figures' && isFigureKey(key))
    return { label: t(FIGURE_LABEL[key]), value: figureValue(key, data.figures, t) };
  if (root === 'subScores' && isSubScore(key)) {
    const v = data.subScores?.[key];
    return {
      label: t('suggest.fig.subScore', { name: t(`score.${key}`) }),
      value: typeof v === 'number' ? String(Math.round(v)) : t('ui.notAvailable'),
    };
  }
  if (root === 'pitchDistanceSt') {
    const v = fixed(data.pitchDistanceSt);
    return {
      label: t('suggest.fig.pitchDistance'),
      value: v === null ? t('ui.notAvailable') : t('suggest.unit.semitones', { n: v }),
    };
  }
  return null;
}

/**
 * The statements with their figures: the server's points carry each statement's topic name, text and
 * the figures it quotes. An answer without points (kept from an older server) shows its lines as
 * they are, with no figure beside them: nothing reads the text to guess what it talks about.
 */
function statements(
  data: SoundSuggestData & { lines: string[] },
  t: Translate,
): Array<{ head: string | null; body: string; chips: Array<{ label: string; value: string }> }> {
  if (data.points?.length) {
    return data.points.map((p) => {
      const chips = p.figures
        .map((f) => figureAt(f, data, t))
        .filter((c): c is { label: string; value: string } => c !== null);
      return p.body === undefined
        ? { head: null, body: p.text, chips }
        : { head: p.head ?? null, body: p.body, chips };
    });
  }
  return data.lines.map((body) => ({ head: null, body, chips: [] }));
}

/** The voice interpretation, one readable point per line, each beside the figures it refers to. */
export function SoundSuggestScreen({ id }: { id: string }) {
  useSignals();
  const { t, lang } = useT();
  const { status, reload } = useLoad(() => loadSoundSuggest(id, lang), [id, lang]);
  const data =
    soundSuggest.value?.filmId === id && soundSuggest.value.lang === lang ? soundSuggest.value : null;
  const next = (
    <ButtonLink
      to={paths.report('prpt', { filmId: id })}
      variant="primary"
      size="lg"
      icon={<ArrowRightIcon />}
    >
      {t('suggest.toReport')}
    </ButtonLink>
  );
  const back = (
    <ButtonLink to={paths.dub(id)} variant="ghost" size="sm" icon={<ArrowLeftIcon />}>
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
                <ButtonLink to={paths.dub(id)} variant="primary">
                  {t('suggest.backToDub')}
                </ButtonLink>
              </div>
            }
          />
        )}
      </div>
    );
  }
  return (
    <div className="screen" data-screen="sound-suggest">
      <PageHeader back={back} title={t('suggest.title')} subtitle={t('suggest.subtitle')} actions={next} />
      <PartSteps part="prpt" current="suggest" compact />
      <div className={styles.layout}>
        <StatementList statements={statements(data, t)} label={t('suggest.title')} />
        <FiguresCard figures={data.figures} t={t} />
      </div>
      <SuggestWords lines={data.words} lang={lang} />
      <div className={styles.next}>{next}</div>
    </div>
  );
}

/** Each statement with its topic's name and the figures it quotes beside it. */
function StatementList({
  statements: list,
  label,
}: {
  statements: ReturnType<typeof statements>;
  label: string;
}) {
  return (
    <ol className={styles.lines} aria-label={label}>
      {list.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: statements are static text, possibly repeated
        <li key={i} className={styles.line}>
          <p className={styles.body}>
            {line.head ? <span className={styles.head}>{line.head}</span> : null}
            {line.body}
          </p>
          {line.chips.length ? (
            <dl className={styles.chips}>
              {line.chips.map((c) => (
                <div key={c.label} className={styles.chip}>
                  <dt>{c.label}</dt>
                  <dd>{c.value}</dd>
                </div>
              ))}
            </dl>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

/** The run's figures, each named. */
function FiguresCard({ figures, t }: { figures: SoundSuggestData['figures']; t: Translate }) {
  return (
    <Card title={t('suggest.figures')} titleId="suggest-figures">
      <dl className={styles.figures}>
        {SHOWN.map((k) => (
          <div key={k} className={styles.figure}>
            <dt>{t(FIGURE_LABEL[k])}</dt>
            <dd>{figureValue(k, figures, t)}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

/** The route's screen (`/prpt/soundSuggest/:id`). */
export default function SoundSuggestRoute() {
  const { id = '' } = useParams();
  return <SoundSuggestScreen id={id} />;
}
