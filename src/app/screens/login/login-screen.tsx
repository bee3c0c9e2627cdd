import { useEffect, useState } from 'react';
import { useAfterLogin } from '../../lib/use-after-login';
import { loginWithPassword } from '../../stores/account';
import { useQrLogin } from '../../stores/use-qr-login';
import { PageHeader } from '../../ui/page-header';
import { type Part, usePart } from '../../lib/paths';
import { useT } from '../../i18n/use-t';
import styles from './login-screen.module.css';
import { PasswordForm } from './password-form';
import { QrPanel } from './qr-panel';

export interface LoginScreenProps {
  part: Part;
  /** Where to go once logged in (the guard's `redirect`). */
  onLoggedIn: () => void;
}

/**
 * A phone cannot scan a code on its own screen: there the account form is the way in. A page opened
 * at this width asks for no code; a wider page narrowed later keeps its code current, out of view.
 */
const PHONE_LAYOUT = '(max-width: 40rem)';

/** Whether `query` matches now, following changes (a window resized, a tablet turned). */
function useMedia(query: string): boolean {
  const [matches, setMatches] = useState(() => matchMedia(query).matches);
  useEffect(() => {
    const media = matchMedia(query);
    const follow = () => setMatches(media.matches);
    follow();
    media.addEventListener('change', follow);
    return () => media.removeEventListener('change', follow);
  }, [query]);
  return matches;
}

/** The QR code and the "or" between it and the form, shown while the page is wider than a phone. */
function QrSignIn({ onLoggedIn }: { onLoggedIn: () => void }) {
  const { t } = useT();
  const qr = useQrLogin(() => onLoggedIn());
  if (useMedia(PHONE_LAYOUT)) return null;
  return (
    <>
      <QrPanel phase={qr.phase} qrcode={qr.qrcode} link={qr.link} onRefresh={qr.restart} />
      <div className={styles.or} aria-hidden="true">
        {t('signin.or')}
      </div>
    </>
  );
}

/** QR code beside the account form; either way in returns the learner to the page they asked for. */
export function LoginScreen({ part, onLoggedIn }: LoginScreenProps) {
  const { t } = useT();
  const [qrOffered] = useState(() => !matchMedia(PHONE_LAYOUT).matches);
  return (
    <div className="screen screen--narrow" data-screen="login">
      <PageHeader
        eyebrow={t(`part.${part}.name`)}
        title={t('signin.title')}
        subtitle={t('signin.subtitle')}
      />
      <div className={styles.panels}>
        {qrOffered ? <QrSignIn onLoggedIn={onLoggedIn} /> : null}
        <PasswordForm
          onSubmit={(account, password) => loginWithPassword(account, password, { inline: true })}
          onSuccess={onLoggedIn}
        />
      </div>
    </div>
  );
}

/** The route's screen (`/<part>/login`): once logged in, back to the page the guard stopped. */
export default function LoginRoute() {
  const part = usePart();
  const done = useAfterLogin();
  return <LoginScreen part={part} onLoggedIn={done} />;
}
