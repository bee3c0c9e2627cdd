import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { Question, QuestionResult } from '../../../api/contract';
import type { Lang } from '../../i18n';
import { ButtonLink } from '../../ui/button';
import { Card } from '../../ui/card';
import { ArrowRightIcon, CheckIcon, CrossIcon, MicIcon } from '../../ui/icons';
import { PageHeader } from '../../ui/page-header';
import { ProgressRing } from '../../ui/progress-ring';
import { scoreBand } from '../../ui/score-badge';
import { EmptyState, LoadingState } from '../../ui/states';
import type { LastResult } from '../../features/answers/answer-storage';
import { loadLatestResult } from '../../features/answers/latest-result';
import { filmTitle } from '../../lib/film-title';
import { type Part, paths, usePart } from '../../lib/paths';
import { PartSteps } from '../../ui/part-steps';
import { type Translate, useT } from '../../i18n/use-t';
import { answerText } from '../../features/answers/answer-text';
import styles from './result-screen.module.css';

function ResultItem({
  r,
  q,
  index,
  t,
  lang,
}: {
  r: QuestionResult;
  q: Question | undefined;
  index: number;
  t: Translate;
  lang: Lang;
}) {
  const kind = r.correct === null ? 'open' : r.correct ? 'correct' : 'wrong';
  const verdict =
    kind === 'open' ? t('result.open') : kind === 'correct' ? t('result.correct') : t('result.wrong');
  const mine = answerText(r.answer, q, lang);
  const right = r.correctAnswer ? answerText(r.correctAnswer, q, lang) : null;
  const explanation = r.explanation[lang] || r.explanation.zh;
  return (
    <li className={`${styles.item} ${styles[kind]}`}>
      <div className={styles.itemHead}>
        <h3 className={styles.prompt}>
          <span className="muted">{t('answer.question', { n: index + 1 })} · </span>
          {q ? q.prompt[lang] || q.prompt.zh : r.questionId}
        </h3>
        <span className={styles.verdict}>
          {kind === 'correct' ? <CheckIcon /> : kind === 'wrong' ? <CrossIcon /> : null}
          {verdict}
          {kind !== 'open' ? (
            <span className="muted">{t('result.scoreOf', { score: r.score, max: r.points })}</span>
          ) : null}
        </span>
      </div>
      <dl className={styles.answers}>
        <dt>{t('result.yourAnswer')}</dt>
        <dd>{mine ?? t('result.noAnswer')}</dd>
        {right && kind === 'wrong' ? (
          <>
            <dt>{t('result.correctAnswer')}</dt>
            <dd>{right}</dd>
          </>
        ) : null}
      </dl>
      {explanation ? (
        <p className={styles.explanation}>
          <strong>
            {t('result.explanation')}
            {t('ui.colon')}
          </strong>
          {explanation}
        </p>
      ) : null}
    </li>
  );
}

/** Score and per-question feedback with explanations; next is the report (prpo) or dubbing (prpt). */
export function ResultScreen({ part, filmId: wanted }: { part: Part; filmId?: string }) {
  const { t, lang } = useT();
  const last = useLatestResult(part, wanted);
  if (last === undefined) {
    return (
      <div className="screen screen--narrow" data-screen="result">
        <PageHeader title={t('result.title')} />
        <LoadingState label={t('common.loading')} />
      </div>
    );
  }
  if (!last) {
    return (
      <div className="screen screen--narrow" data-screen="result">
        <PageHeader title={t('result.title')} />
        <EmptyState
          title={t('result.empty')}
          body={t('result.emptyBody')}
          action={
            <ButtonLink to={paths.movies(part)} variant="primary">
              {t('home.browse')}
            </ButtonLink>
          }
        />
      </div>
    );
  }
  const { data, questions, filmId } = last;
  const title = filmTitle({ title: last.filmTitle, titleEn: last.filmTitleEn }, lang);
  const next = <NextStep part={part} recordId={data.recordId} filmId={filmId} t={t} />;
  return (
    <div className="screen screen--narrow" data-screen="result">
      <PageHeader eyebrow={title} title={t('result.title')} actions={next} />
      <PartSteps part={part} current="result" compact />
      <ScoreSummary data={data} t={t} />
      <h2 className="visually-hidden">{t('result.perQuestion')}</h2>
      <ol className={styles.items}>
        {data.results.map((r, i) => (
          <ResultItem
            key={r.questionId}
            r={r}
            q={questions.find((q) => q.id === r.questionId)}
            index={i}
            t={t}
            lang={lang}
          />
        ))}
      </ol>
      <div className={styles.next}>{next}</div>
    </div>
  );
}

/** This tab's answers, else the latest answered run from the server; undefined while loading. */
function useLatestResult(part: Part, wanted: string | undefined): LastResult | null | undefined {
  const [last, setLast] = useState<LastResult | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    setLast(undefined);
    void loadLatestResult(part, wanted).then((r) => live && setLast(r));
    return () => {
      live = false;
    };
  }, [part, wanted]);
  return last;
}

/** On from the result: to the report (part one) or to dubbing the film (part two). */
function NextStep({
  part,
  recordId,
  filmId,
  t,
}: {
  part: Part;
  recordId: LastResult['data']['recordId'];
  filmId: string;
  t: Translate;
}) {
  return part === 'prpo' ? (
    <ButtonLink to={paths.report(part, { recordId })} variant="primary" size="lg" icon={<ArrowRightIcon />}>
      {t('result.toReport')}
    </ButtonLink>
  ) : (
    <ButtonLink to={paths.dub(filmId)} variant="primary" size="lg" icon={<MicIcon />}>
      {t('result.toDub')}
    </ButtonLink>
  );
}

/** The score as a ring (coloured by its band) and as points, with a word of praise for its band. */
function ScoreSummary({ data, t }: { data: LastResult['data']; t: Translate }) {
  const band = scoreBand(data.percent);
  const praise = t(
    band === 'high' ? 'result.praise.high' : band === 'mid' ? 'result.praise.mid' : 'result.praise.low',
  );
  return (
    <Card>
      <div className={styles.summary}>
        <ProgressRing
          value={data.percent / 100}
          size={132}
          stroke={12}
          label={t('result.scoreLabel', { percent: data.percent })}
          color={
            band === 'high' ? 'var(--color-success)' : band === 'low' ? 'var(--color-danger)' : undefined
          }
        >
          {/* A share, not the points beside it: shown with its unit so two numbers never both read as "the score". */}
          {t('ui.percent', { n: data.percent })}
        </ProgressRing>
        <div className={styles.scoreText}>
          <span className="muted">{t('result.score')}</span>
          <span className={styles.scoreBig}>
            {t('result.scoreOf', { score: data.score, max: data.maxScore })}
          </span>
          <p className={styles.praise}>{praise}</p>
        </div>
      </div>
    </Card>
  );
}

/** The route's screen (`/<part>/result`). */
export default function ResultRoute() {
  // `?filmId=`: that film's result (the dub page's way back), else the latest answered one.
  const [search] = useSearchParams();
  return <ResultScreen part={usePart()} filmId={search.get('filmId') ?? undefined} />;
}
