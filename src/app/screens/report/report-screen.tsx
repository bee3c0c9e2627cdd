import { useSignals } from '@preact/signals-react/runtime';
import * as prpo from '../../stores/prpo';
import * as prpt from '../../stores/prpt';
import { Button, ButtonLink } from '../../ui/button';
import { PageHeader } from '../../ui/page-header';
import { EmptyState, LoadingState } from '../../ui/states';
import type { Part } from '../common/part';
import { useLoad } from '../common/use-load';
import { useT } from '../common/use-t';
import { ReportView } from './report-view';

/**
 * Loads a report and its H5 link. prpo asks for one record by id; prpt for the learner's latest
 * training (spec §7: its report call has an empty payload).
 */
export function ReportScreen({ part, id }: { part: Part; id?: string }) {
  useSignals();
  const { t } = useT();
  const report = useLoad(() => (part === 'prpo' ? prpo.loadReport(id ?? '') : prpt.loadReport()), [part, id]);
  const current = part === 'prpo' ? prpo.prpoReport.value : prpt.prpTReport.value;
  const data = current && (part === 'prpt' || current.id === id) ? current : null;
  const url = useLoad(
    () =>
      !data
        ? Promise.resolve(null)
        : part === 'prpo'
          ? prpo.loadReportH5Url(data.id)
          : prpt.loadReportH5Url(data.id),
    [part, data?.id],
  );
  const h5 = part === 'prpo' ? prpo.reportH5Url.value : prpt.reportH5Url.value;
  // The report names questions, not their options: the film's detail turns chosen ids into labels.
  const detailSignal = part === 'prpo' ? prpo.movieDetail : prpt.movieDetail;
  const filmId = data?.film.id;
  useLoad(
    () =>
      !filmId || detailSignal.peek()?.id === filmId
        ? Promise.resolve(true)
        : (part === 'prpo' ? prpo.loadMovieDetail : prpt.loadMovieDetail)(filmId),
    [part, filmId],
  );

  const detail = detailSignal.value;

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
                <ButtonLink to={`/${part}/movies`} variant="primary">
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
