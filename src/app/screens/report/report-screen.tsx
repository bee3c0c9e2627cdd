import { useSignals } from '@preact/signals-react/runtime';
import { useEffect } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { filmStore } from '../../stores/films';
import { type ReportSelector, reportState } from './report-state';
import type { Report } from '../../../api/contract';
import { Button, ButtonLink } from '../../ui/button';
import { PageHeader } from '../../ui/page-header';
import { EmptyState, LoadingState } from '../../ui/states';
import { type Part, paths, usePart } from '../../lib/paths';
import { useLoad } from '../../lib/use-load';
import { pollWithBackoff } from '../../lib/poll';
import { useT } from '../../i18n/use-t';
import { ReportView } from './report-view';

/** Whether the report held in the store is the one the selector asks for. */
function matches(r: Report, part: Part, sel: ReportSelector): boolean {
  if (sel.runId) return r.runId === sel.runId;
  if (sel.id) return r.id === sel.id;
  if (sel.filmId) return r.film.id === sel.filmId;
  return part === 'prpt';
}

/**
 * Loads one run's report and its H5 link. prpo: a record id, or a run id from the history; prpt: the
 * learner's latest training (docs/api.md: an empty payload), a run (`?runId=`) or a film's latest run
 * (`?filmId=`), so any earlier run stays readable.
 */
export function ReportScreen({ part, select }: { part: Part; select: ReportSelector }) {
  useSignals();
  const { t } = useT();
  const store = reportState(part);
  const films = filmStore(part);
  const { id, runId, filmId: wantFilm } = select;
  const report = useLoad(
    () => store.loadReport({ id, runId, filmId: wantFilm }),
    [part, id, runId, wantFilm],
  );
  const current = store.report.value;
  const data = current && matches(current, part, select) ? current : null;
  // The link names the run shown (a report from a server without runs names its record).
  const shareRun = data?.runId;
  const shareRecord = data?.id;
  const url = useLoad(
    () =>
      !shareRecord
        ? Promise.resolve(null)
        : store.loadReportH5Url(shareRun ? { runId: shareRun } : { id: shareRecord }),
    [part, shareRun, shareRecord],
  );
  const h5 = store.reportH5Url.value;
  // The report names questions, not their options: the film's detail turns chosen ids into labels.
  const filmId = data?.film.id;
  useLoad(
    () =>
      !filmId || films.movieDetail.peek()?.id === filmId
        ? Promise.resolve(true)
        : films.loadMovieDetail(filmId),
    [part, filmId],
  );

  const detail = films.movieDetail.value;

  // The dubbed video renders in the background (server/renders): while it does, the report asks
  // again with backoff (1 s, 2 s, 4 s … at most 15 s apart) until it is ready or failed, and stops
  // when the learner leaves. A newer answer replaces the report in the store, which ends the wait.
  const rendering = data?.dubVideo?.status === 'rendering';
  useEffect(() => {
    if (!rendering) return;
    return pollWithBackoff(async () => {
      const next = await store.loadReport({ id, runId, filmId: wantFilm });
      return next !== null && next.dubVideo?.status !== 'rendering';
    });
  }, [rendering, store, id, runId, wantFilm]);

  if (!data || report.status === 'loading') {
    return (
      <div className="screen" data-screen="report">
        <PageHeader title={t('report.title')} />
        {report.status === 'loading' ? (
          <LoadingState label={t('report.loading')} />
        ) : (
          <EmptyState
            title={report.status === 'failed' ? t('report.empty') : t('ui.loadFailedTitle')}
            body={t('report.emptyBody')}
            action={
              <div className="row">
                <Button onClick={report.reload}>{t('ui.reload')}</Button>
                <ButtonLink to={paths.movies(part)} variant="primary">
                  {t('home.browse')}
                </ButtonLink>
              </div>
            }
          />
        )}
      </div>
    );
  }
  return (
    <ReportView
      part={part}
      report={data}
      h5Url={url.status === 'ready' ? h5 : ''}
      h5Pending={url.status === 'loading'}
      questions={detail?.id === data.film.id ? detail.questions : []}
    />
  );
}

/**
 * The route's screen: `/prpo/report/:id` (a record; `?by=run`: a run), `/prpt/report` (the latest
 * training; `?runId=` or `?filmId=` another).
 */
export default function ReportRoute() {
  const { id } = useParams();
  const [search] = useSearchParams();
  const part = usePart();
  const select: ReportSelector =
    part === 'prpo'
      ? search.get('by') === 'run'
        ? { runId: id }
        : { id }
      : { runId: search.get('runId') ?? undefined, filmId: search.get('filmId') ?? undefined };
  return <ReportScreen part={part} select={select} />;
}
