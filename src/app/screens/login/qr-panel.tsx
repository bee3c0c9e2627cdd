import type { QrPhase } from '../../stores/qr-login';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { CheckIcon, RefreshIcon } from '../../ui/icons';
import { useT } from '../../i18n/use-t';
import styles from './login-screen.module.css';

export interface QrPanelProps {
  phase: QrPhase;
  qrcode: string;
  /** The address the code holds (qr_url's answer). */
  link?: string;
  onRefresh: () => void;
}

/** Host names a phone resolves to itself, not this server (as server/lib/public-url.ts LOOPBACK). */
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The link's `host[:port]` when a phone could not open it: the server falls back to the address the
 * kiosk opened when it has no LAN address and no PUBLIC_URL (server/lib/public-url.ts publicBase).
 */
export function loopbackHost(link: string | undefined): string | null {
  if (!link) return null;
  try {
    const url = new URL(link);
    return LOOPBACK.test(url.hostname) ? url.host : null;
  } catch {
    return null;
  }
}

/** The QR code with its state in words: waiting, scanned (confirm on the phone), expired (refreshing). */
export function QrPanel({ phase, qrcode, link, onRefresh }: QrPanelProps) {
  const { t } = useT();
  const loopback = loopbackHost(link);
  const status =
    phase === 'scanned'
      ? t('signin.qr.scanned')
      : phase === 'expired' || phase === 'cancelled'
        ? t('signin.qr.expired')
        : phase === 'success'
          ? t('signin.qr.confirmed')
          : phase === 'error'
            ? t('signin.qr.failed')
            : phase === 'waiting'
              ? t('signin.qr.waiting')
              : t('signin.qr.loading');
  const dimmed = phase === 'scanned' || phase === 'expired' || phase === 'cancelled' || phase === 'success';
  return (
    <Card title={t('signin.qr.title')} titleId="qr-title">
      <div className={styles.qrBox}>
        <div className={styles.qrFrame}>
          {qrcode ? <img src={qrcode} alt={t('signin.qr.alt')} width={288} height={288} /> : null}
          {dimmed || !qrcode ? (
            <div className={styles.qrOverlay} aria-hidden="true">
              {phase === 'scanned' || phase === 'success' ? <CheckIcon width={48} height={48} /> : null}
            </div>
          ) : null}
        </div>
        <p
          className={`${styles.qrStatus} ${phase === 'scanned' || phase === 'success' ? styles.scanned : ''} ${
            phase === 'expired' ? styles.expired : ''
          }`}
          role="status"
          aria-live="polite"
          data-qr-phase={phase}
        >
          {status}
        </p>
        {/* What scanning does and why, in the order it happens. */}
        <ol className={styles.qrSteps} data-testid="qr-steps">
          <li>{t('signin.qr.step1')}</li>
          <li>{t('signin.qr.step2')}</li>
          <li>{t('signin.qr.step3')}</li>
        </ol>
        {loopback ? (
          <p className={styles.qrHint} data-testid="qr-loopback">
            {t('signin.qr.loopback', { host: loopback })}
          </p>
        ) : null}
        {phase === 'error' || phase === 'scanned' ? (
          <Button variant="ghost" size="sm" icon={<RefreshIcon />} onClick={onRefresh}>
            {t('signin.qr.refresh')}
          </Button>
        ) : null}
      </div>
    </Card>
  );
}
