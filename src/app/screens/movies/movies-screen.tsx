import { useSignals } from '@preact/signals-react/runtime';
import type { FilmSummary } from '../../../api/contract';
import { prefixImage } from '../../../api/image';
import { Button } from '../../ui/button';
import { PageHeader } from '../../ui/page-header';
import { PosterCard } from '../../ui/poster-card';
import { EmptyState, PosterGridSkeleton } from '../../ui/states';
import { clock, minutesSeconds } from '../../lib/format';
import { type Part, paths, usePart } from '../../lib/paths';
import { filmStore } from '../../stores/films';
import { useLoad } from '../../lib/use-load';
import { type Translate, useT } from '../../i18n/use-t';
import { filmTitle, otherFilmTitle } from '../../lib/film-title';
import { rememberAttractFilms } from '../../features/attract/attract-posters';
import styles from './movies-screen.module.css';

/** Posters of the first screenful (a phone's first two rows of two; most of a desktop's first row). */
const FIRST_SCREENFUL = 4;

function filmStatus(f: FilmSummary, part: Part, t: Translate): string {
  const p = f.progress;
  if (part === 'prpt' && p.dubbedLines > 0)
    return t('movies.dubbed', { done: p.dubbedLines, total: p.totalLines });
  if (p.answered) return t('movies.answered', { score: Math.round(p.bestScore ?? 0) });
  return t('movies.notStarted');
}

/** The poster shelf: title, duration, part and the learner's progress per film. */
export function MoviesScreen({ part }: { part: Part }) {
  useSignals();
  const { t, lang } = useT();
  const store = filmStore(part);
  const { status, reload } = useLoad(() => store.loadMovies(), [part]);
  const films = store.movies.value;
  rememberAttractFilms(films);
  const body =
    status === 'loading' && films.length === 0 ? (
      <PosterGridSkeleton label={t('movies.loading')} />
    ) : films.length === 0 ? (
      <EmptyState
        title={status === 'failed' ? t('ui.loadFailedTitle') : t('movies.empty')}
        body={status === 'failed' ? t('ui.loadFailedBody') : t('movies.emptyBody')}
        action={
          <Button variant="secondary" onClick={reload}>
            {t('ui.reload')}
          </Button>
        }
      />
    ) : (
      <ul className={styles.grid}>
        {films.map((f, i) => {
          const { m, s } = minutesSeconds(f.durationMs);
          return (
            <li key={f.id}>
              <PosterCard
                to={paths.cinema(part, f.id)}
                title={filmTitle(f, lang)}
                subtitle={otherFilmTitle(f, lang)}
                posterUrl={prefixImage(f.poster)}
                priority={i < FIRST_SCREENFUL}
                durationLabel={clock(f.durationMs)}
                durationSpoken={t('movies.duration', { d: t('ui.minutesSeconds', { m, s }) })}
                tags={[
                  ...f.parts.map((p) => t(`part.${p}.name`)),
                  part === 'prpt'
                    ? t('movies.lines', { n: f.lineCount })
                    : t('movies.questions', { n: f.questionCount }),
                ]}
                status={filmStatus(f, part, t)}
              />
            </li>
          );
        })}
      </ul>
    );
  return (
    <div className="screen" data-screen="movies">
      <PageHeader
        eyebrow={t(`part.${part}.name`)}
        title={t('movies.title')}
        subtitle={films.length > 0 ? t('movies.subtitle', { n: films.length }) : undefined}
      />
      {body}
    </div>
  );
}

/** The route's screen (`/<part>/movies`). */
export default function MoviesRoute() {
  return <MoviesScreen part={usePart()} />;
}
