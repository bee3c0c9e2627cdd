import { useSignals } from '@preact/signals-react/runtime';
import { isLoggedIn } from '../../stores/account';
import { ButtonLink } from '../../ui/button';
import { ArrowRightIcon } from '../../ui/icons';
import { PageHeader } from '../../ui/page-header';
import { type Part, paths, usePart } from '../../lib/paths';
import { PartSteps } from '../../ui/part-steps';
import { useT } from '../../i18n/use-t';

/** The steps of the part and one large start button (the guard sends a logged-out learner to login first). */
export function IntroScreen({ part }: { part: Part }) {
  useSignals();
  const { t } = useT();
  return (
    <div className="screen" data-screen="intro">
      <PageHeader
        eyebrow={t('intro.eyebrow', { part: t(`part.${part}`) })}
        title={t(`part.${part}.name`)}
        subtitle={t(`part.${part}.tagline`)}
      />
      <PartSteps part={part} />
      <div className="row">
        <ButtonLink to={paths.movies(part)} variant="primary" size="lg" icon={<ArrowRightIcon />}>
          {isLoggedIn.value ? t('intro.start') : t('intro.login')}
        </ButtonLink>
        <span className="muted">{t('intro.duration', { min: part === 'prpo' ? 10 : 20 })}</span>
      </div>
    </div>
  );
}

/** The route's screen (`/<part>/intro`). */
export default function IntroRoute() {
  return <IntroScreen part={usePart()} />;
}
