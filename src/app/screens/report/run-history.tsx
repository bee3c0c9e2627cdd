import { Link } from 'react-router-dom';
import { formatScore } from '../../../api/contract/display';
import type { RunSummary } from '../../../api/contract';
import { type Part, paths } from '../../lib/paths';
import type { Lang } from '../../i18n';
import type { Translate } from '../../i18n/use-t';
import { filmTitle } from '../../lib/film-title';
import { formatDate } from '../../lib/format';
import { Card } from '../../ui/card';
import { LazyProgressChart } from '../../ui/charts/lazy';
import styles from './report-screen.module.css';

/** A run's day on the curve's axis ("24 Nov" / "11月24日"). */
function formatDay(iso: string, lang: Lang): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleDateString(lang === 'zh' ? 'zh-CN' : 'en-GB', { month: 'short', day: 'numeric' });
}

/**
 * The learner's earlier runs in this part, newest first (the report's `progress`): date, film and the
 * same figures as each run's report, each row opening that run's report; this run is marked.
 */
export function RunHistory({
  part,
  runs,
  current,
  t,
  lang,
}: {
  part: Part;
  runs: readonly RunSummary[];
  current: string | undefined;
  t: Translate;
  lang: Lang;
}) {
  if (runs.length === 0) return null;
  const newestFirst = [...runs].reverse();
  return (
    <Card title={t('report.history')} titleId="report-history" data-testid="run-history">
      {runs.length > 1 ? (
        <LazyProgressChart
          points={runs.map((r) => ({
            label: formatDay(r.updatedAt, lang),
            answers: r.answered ? r.answerPercent : null,
            dubbing: r.dubbingAverage,
          }))}
          showDubbing={part === 'prpt'}
          labels={{
            title: t('report.progress'),
            // Part one has no dubbing: its summary names the answer score alone.
            summary: t(part === 'prpt' ? 'report.progressSummary' : 'report.progressSummaryAnswers', {
              n: runs.length,
            }),
            answers: t('report.historyAnswers'),
            dubbing: t('report.dubAverage'),
            fallback: t('ui.chartFallback'),
          }}
        />
      ) : null}
      <p className="muted">{t('report.historyBody')}</p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: scrollable region (axe scrollable-region-focusable) */}
      <section className={styles.tableWrap} tabIndex={0} aria-label={t('report.historyTable')}>
        <table className={`${styles.table} ${styles.history}`}>
          <thead>
            <tr>
              <th scope="col">{t('report.historyDate')}</th>
              <th scope="col">{t('report.historyFilm')}</th>
              <th scope="col">{t('report.historyAnswers')}</th>
              {part === 'prpt' ? <th scope="col">{t('report.historyDubbing')}</th> : null}
            </tr>
          </thead>
          <tbody>
            {newestFirst.map((r) => (
              <RunRow key={r.runId} run={r} part={part} here={r.runId === current} t={t} lang={lang} />
            ))}
          </tbody>
        </table>
      </section>
    </Card>
  );
}

/** One run: its date (a link to its report, unless it is this one), film, answers and dubbing. */
function RunRow({
  run: r,
  part,
  here,
  t,
  lang,
}: {
  run: RunSummary;
  part: Part;
  here: boolean;
  t: Translate;
  lang: Lang;
}) {
  const date = formatDate(r.updatedAt, lang);
  const avg = formatScore(r.dubbingAverage);
  return (
    <tr aria-current={here ? 'true' : undefined} data-run={r.runId}>
      <th scope="row" style={{ fontWeight: 'normal' }}>
        {here ? (
          <>
            {date} <strong>· {t('report.historyThis')}</strong>
          </>
        ) : (
          <Link to={paths.report(part, { runId: r.runId })} aria-label={t('report.historyOpen', { date })}>
            {date}
          </Link>
        )}
      </th>
      <td data-label={t('report.historyFilm')}>
        {filmTitle({ title: r.filmTitle, titleEn: r.filmTitleEn }, lang)}
      </td>
      <td className={styles.num} data-label={t('report.historyAnswers')}>
        {r.answered && r.answerPercent !== null
          ? t('ui.percent', { n: r.answerPercent })
          : t('report.historyNotAnswered')}
      </td>
      {part === 'prpt' ? (
        <td data-label={t('report.historyDubbing')}>
          {r.dubbedLines > 0 && avg !== null
            ? t('report.historyDubbed', { done: r.dubbedLines, total: r.totalLines, avg })
            : t('report.historyNotDubbed')}
        </td>
      ) : null}
    </tr>
  );
}
