import { useSignals } from '@preact/signals-react/runtime';
import { Link } from 'react-router-dom';
import type { FilmSummary } from '../../../api/contract';
import { prefixImage } from '../../../api/image';
import { isLoggedIn, userInfo } from '../../stores/account';
import { ButtonLink } from '../../ui/button';
import { Card } from '../../ui/card';
import { ArrowRightIcon } from '../../ui/icons';
import { PageHeader } from '../../ui/page-header';
import { LoadingState } from '../../ui/states';
import { type Part, paths, usePart } from '../../lib/paths';
import { PartSteps } from '../../ui/part-steps';
import { recentFilms } from '../../lib/film-progress';
import { filmStore } from '../../stores/films';
import { filmTitle } from '../../lib/film-title';
import { useLoad } from '../../lib/use-load';
import type { Lang } from '../../i18n';
import { type Translate, useT } from '../../i18n/use-t';
import styles from './home-screen.module.css';

function Stats({ films, part, t }: { films: readonly FilmSummary[]; part: Part; t: Translate }) {
  const answered = films.filter((f) => f.progress.answered).length;
  const dubbed = films.reduce((n, f) => n + f.progress.dubbedLines, 0);
  const best = films.reduce<number | null>(
    (b, f) => (f.progress.bestScore === null ? b : Math.max(b ?? 0, f.progress.bestScore)),
    null,
  );
  const items = [
    { value: films.length, label: t('home.stats.films') },
    { value: answered, label: t('home.stats.answered') },
    part === 'prpt'
      ? { value: dubbed, label: t('home.stats.dubbed') }
      : { value: best === null ? '—' : Math.round(best), label: t('home.stats.best') },
  ];
  return (
    <dl className={styles.stats}>
      {items.map((s) => (
        <div key={s.label} className={styles.stat}>
          <dt className={styles.statLabel}>{s.label}</dt>
          <dd className={styles.statValue} style={{ margin: 0, order: -1 }}>
            {s.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Recent({
  films,
  part,
  t,
  lang,
}: {
  films: readonly FilmSummary[];
  part: Part;
  t: Translate;
  lang: Lang;
}) {
  const recent = recentFilms(films);
  if (recent.length === 0) return <p className="muted">{t('home.noRecent')}</p>;
  return (
    <ul className={styles.recent}>
      {recent.map((f) => {
        const status =
          part === 'prpt' && f.progress.dubbedLines > 0
            ? t('movies.dubbed', { done: f.progress.dubbedLines, total: f.progress.totalLines })
            : f.progress.answered
              ? t('movies.answered', { score: Math.round(f.progress.bestScore ?? 0) })
              : t('movies.notStarted');
        return (
          <li key={f.id}>
            <Link to={paths.cinema(part, f.id)} className={styles.recentItem}>
              <img className={styles.thumb} src={prefixImage(f.poster)} alt="" loading="lazy" />
              <span className={styles.recentText}>
                <span className={styles.recentTitle}>{filmTitle(f, lang)}</span>
                <span className="muted">{status}</span>
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** A part's home: a greeting, the learner's recent progress and the way into the films. */
export function HomeScreen({ part }: { part: Part }) {
  useSignals();
  const { t, lang } = useT();
  const store = filmStore(part);
  const logged = isLoggedIn.value;
  const { status } = useLoad(() => (logged ? store.loadMovies() : Promise.resolve(true)), [part, logged]);
  const films = store.movies.value;
  const name = userInfo.value?.nickname;
  const other: Part = part === 'prpo' ? 'prpt' : 'prpo';
  // The latest run's report carries the history of every run in the part.
  const latestRun = recentFilms(films, 1)[0]?.progress.runId ?? null;
  return (
    <div className="screen" data-screen="home">
      <PageHeader
        eyebrow={t(`part.${part}.name`)}
        title={
          logged && name
            ? t('home.welcome', { name })
            : t('home.welcomeGuest', { part: t(`part.${part}.name`) })
        }
        subtitle={t(`part.${part}.tagline`)}
        actions={
          <ButtonLink to={paths.movies(part)} variant="primary" size="lg" icon={<ArrowRightIcon />}>
            {logged ? t('home.browse') : t('intro.login')}
          </ButtonLink>
        }
      />
      <div className={styles.hero}>
        <Card
          title={t('home.recent')}
          titleId="home-recent"
          aside={
            logged && latestRun ? (
              <ButtonLink to={paths.report(part, { runId: latestRun })} variant="ghost" size="sm">
                {t('home.history')}
              </ButtonLink>
            ) : null
          }
        >
          {!logged ? (
            <p className="muted">{t('home.loginToTrack')}</p>
          ) : status === 'loading' && films.length === 0 ? (
            <LoadingState label={t('common.loading')} />
          ) : (
            <Recent films={films} part={part} t={t} lang={lang} />
          )}
        </Card>
        {logged ? (
          <Card title={t('home.stats.title')} titleId="home-stats">
            <Stats films={films} part={part} t={t} />
          </Card>
        ) : null}
      </div>
      <section aria-labelledby="home-how" className="stack">
        <h2 id="home-how">{t('home.howItWorks')}</h2>
        <PartSteps part={part} />
      </section>
      <section aria-labelledby="home-other" className="stack" data-testid="home-other-part">
        <h2 id="home-other">{t('home.otherPart')}</h2>
        <p className="muted">{t(`part.${other}.tagline`)}</p>
        <p>
          <ButtonLink to={paths.home(other)} variant="secondary" icon={<ArrowRightIcon />}>
            {t('home.toOtherPart', { part: t(`part.${other}`), name: t(`part.${other}.name`) })}
          </ButtonLink>
        </p>
      </section>
    </div>
  );
}

/** The route's screen (`/<part>`). */
export default function HomeRoute() {
  return <HomeScreen part={usePart()} />;
}
