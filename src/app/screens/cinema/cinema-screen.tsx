import { type MovieDetail, originalLanguage, type SubtitleLine } from '../../lib/movie-detail';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { prefixImage } from '../../../api/image';
import { Button, ButtonLink } from '../../ui/button';
import { Card } from '../../ui/card';
import { ArrowLeftIcon, ArrowRightIcon } from '../../ui/icons';
import { PageHeader } from '../../ui/page-header';
import { EmptyState, LoadingState } from '../../ui/states';
import { clock } from '../../lib/format';
import { type Part, paths, usePart } from '../../lib/paths';
import { filmStore } from '../../stores/films';
import { useLoad } from '../../lib/use-load';
import type { Lang } from '../../i18n';
import { type Translate, useT } from '../../i18n/use-t';
import { filmTitle, otherFilmTitle } from '../../lib/film-title';
import { markFilmStart } from '../../features/answers/answer-storage';
import { lineAt } from './captions';
import styles from './cinema-screen.module.css';
import { Player } from './player';
import { useMedia } from './use-media';

/** The clip in a proper player, its lines to jump between, synopsis and roles, then on to the questions. */
export function CinemaScreen({ part, id }: { part: Part; id: string }) {
  useSignals();
  const { t, lang } = useT();
  const store = filmStore(part);
  const { status, reload } = useLoad(() => store.loadMovieDetail(id), [part, id]);
  const detail = store.movieDetail.value?.id === id ? store.movieDetail.value : null;
  const media = useMedia();
  useEffect(() => markFilmStart(part, id), [part, id]);
  const back = (
    <ButtonLink to={paths.movies(part)} variant="ghost" size="sm" icon={<ArrowLeftIcon />}>
      {t('ui.back')}
    </ButtonLink>
  );

  if (!detail) {
    return (
      <div className="screen" data-screen="cinema">
        <PageHeader title={t(`page.${part}.cinema`)} back={back} />
        {status === 'loading' ? (
          <LoadingState label={t('cinema.loading')} />
        ) : (
          <EmptyState
            title={store.missingFilm.value === id ? t('cinema.notFound') : t('ui.loadFailedTitle')}
            body={store.missingFilm.value === id ? t('cinema.notFoundBody') : t('ui.loadFailedBody')}
            action={
              <div className="row">
                <Button variant="secondary" onClick={reload}>
                  {t('ui.reload')}
                </Button>
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

  const current = lineAt(detail.subtitlesList, media.time);
  const toQuestions = (
    <ButtonLink to={paths.answer(part, id)} variant="primary" size="lg" icon={<ArrowRightIcon />}>
      {t('cinema.toQuestions')}
    </ButtonLink>
  );
  return (
    <div className="screen" data-screen="cinema">
      <PageHeader
        back={back}
        eyebrow={t(`part.${part}.name`)}
        title={filmTitle(detail, lang)}
        subtitle={otherFilmTitle(detail, lang)}
        actions={toQuestions}
      />
      <div className={styles.layout}>
        <Player
          media={media}
          src={prefixImage(detail.video)}
          poster={prefixImage(detail.poster)}
          track={prefixImage(detail.subtitlesTrack)}
          trackLang={originalLanguage(detail.subtitlesList)}
          title={detail.title}
          lines={detail.subtitlesList}
        />
        <Transcript lines={detail.subtitlesList} current={current} onSeek={media.seek} t={t} lang={lang} />
      </div>
      <FilmInfo detail={detail} t={t} lang={lang} />
      <div className={styles.next}>{toQuestions}</div>
    </div>
  );
}

/** The clip's lines, the one playing marked; a line jumps the clip to its start. */
function Transcript({
  lines,
  current,
  onSeek,
  t,
  lang,
}: {
  lines: SubtitleLine[];
  current: SubtitleLine | null;
  onSeek: (seconds: number) => void;
  t: Translate;
  lang: Lang;
}) {
  return (
    <Card title={t('cinema.lines')} titleId="cinema-lines" flat>
      <ol className={styles.transcript}>
        {lines.map((line) => {
          const translation = line.translation[lang];
          const active = current?.id === line.id;
          return (
            <li key={line.id}>
              <button
                type="button"
                className={styles.lineButton}
                aria-current={active ? 'true' : undefined}
                onClick={() => onSeek(line.startMs / 1000 + 0.01)}
              >
                <span className={styles.lineTime}>{clock(line.startMs)}</span>
                <span className={styles.lineText}>
                  <span>
                    {line.speaker ? (
                      <strong>
                        {line.speaker}
                        {t('ui.colon')}
                      </strong>
                    ) : null}
                    {line.text}
                  </span>
                  {translation && translation !== line.text ? (
                    <span className={styles.lineTranslation}>{translation}</span>
                  ) : null}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
    </Card>
  );
}

/** The film's synopsis and its roles. */
function FilmInfo({ detail, t, lang }: { detail: MovieDetail; t: Translate; lang: Lang }) {
  return (
    <div className={styles.info}>
      <Card title={t('cinema.synopsis')} titleId="cinema-synopsis">
        <p className={styles.synopsis}>{detail.synopsis[lang] || detail.synopsis.zh}</p>
      </Card>
      <Card title={t('cinema.roles')} titleId="cinema-roles">
        <ul className={styles.roles}>
          {detail.roles.map((r) => (
            <li key={r.name} className={styles.role}>
              <span className={styles.roleName}>{r.name}</span>
              <span className="muted">{r.description[lang] || r.description.zh}</span>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}

/** The route's screen (`/<part>/cinema/:id`). */
export default function CinemaRoute() {
  const { id = '' } = useParams();
  return <CinemaScreen part={usePart()} id={id} />;
}
