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

/** QR code beside the account form; either way in returns the learner to the page they asked for. */
export function LoginScreen({ part, onLoggedIn }: LoginScreenProps) {
  const { t } = useT();
  const qr = useQrLogin(() => onLoggedIn());
  return (
    <div className="screen screen--narrow" data-screen="login">
      <PageHeader
        eyebrow={t(`part.${part}.name`)}
        title={t('signin.title')}
        subtitle={t('signin.subtitle')}
      />
      <div className={styles.panels}>
        <QrPanel phase={qr.phase} qrcode={qr.qrcode} link={qr.link} onRefresh={qr.restart} />
        <div className={styles.or} aria-hidden="true">
          {t('signin.or')}
        </div>
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
