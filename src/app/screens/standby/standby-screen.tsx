import { useSignals } from '@preact/signals-react/runtime';
import type { CSSProperties } from 'react';
import { useNavigate } from 'react-router-dom';
import type { FilmSummary } from '../../../api/contract';
import { ButtonLink } from '../../ui/button';
import { TouchIcon } from '../../ui/icons';
import { LanguageToggle } from '../../ui/language-toggle';
import { type Part, paths, usePart } from '../../lib/paths';
import { filmStore } from '../../stores/films';
import { useT } from '../../i18n/use-t';
import { type AttractPoster, attractPosters } from '../../features/attract/attract-posters';
import styles from './standby-screen.module.css';

function PosterRow({ posters }: { posters: AttractPoster[] }) {
  // The row is drawn twice so the drift loops without a seam (the animation moves it by half).
  const twice = [...posters, ...posters.map((p) => ({ ...p, key: `${p.key}-again` }))];
  return (
    <div className={styles.row}>
      {twice.map((p) => (
        <div key={p.key} className={styles.poster} style={{ '--tone': p.tone } as CSSProperties}>
          {p.src ? (
            <img src={p.src} alt="" loading="lazy" />
          ) : (
            <span className={styles.posterTitle}>{p.title}</span>
          )}
        </div>
      ))}
    </div>
  );
}

export interface StandbyScreenProps {
  part: Part;
  films: readonly FilmSummary[];
}

/** The attract loop: drifting posters and one large "touch to start"; a touch anywhere starts. */
export function StandbyScreen({ part, films }: StandbyScreenProps) {
  const { t } = useT();
  const navigate = useNavigate();
  const to = paths.intro(part);
  const posters = attractPosters(films, 10);
  const rows = [posters, [...posters].reverse(), posters.slice(3).concat(posters.slice(0, 3))];
  return (
    // A kiosk visitor touches anywhere; keyboard and screen-reader users get the real link below.
    // biome-ignore lint/a11y/useKeyWithClickEvents: the link inside is the keyboard path
    // biome-ignore lint/a11y/noStaticElementInteractions: see above
    <div
      className={styles.screen}
      data-screen="standby"
      onClick={(e) => {
        if ((e.target as HTMLElement).closest('a,button,fieldset')) return;
        navigate(to);
      }}
    >
      <div className={styles.wall} aria-hidden="true">
        {rows.map((r, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: three fixed rows
          <PosterRow key={i} posters={r} />
        ))}
      </div>
      <div className={styles.vignette} aria-hidden="true" />
      <span className={styles.part}>{t(`part.${part}.name`)}</span>
      <div className={`${styles.lang} no-print`}>
        <LanguageToggle />
      </div>
      <div className={styles.center}>
        <h1 className={styles.title}>{t('standby.title')}</h1>
        <p className={styles.tagline}>{t('standby.tagline')}</p>
        <ButtonLink to={to} variant="primary" size="lg" className={styles.cta} icon={<TouchIcon />}>
          {t('standby.start')}
        </ButtonLink>
        <p className={styles.hint} aria-hidden="true">
          {t('standby.touch')}
        </p>
      </div>
    </div>
  );
}

/** The route's screen (`/<part>/standby`): the posters of the part's films, when they are loaded. */
export default function StandbyRoute() {
  useSignals();
  const part = usePart();
  return <StandbyScreen part={part} films={filmStore(part).movies.value} />;
}
