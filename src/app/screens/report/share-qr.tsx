import { useEffect, useState } from 'react';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { useT } from '../../i18n/use-t';
import styles from './report-screen.module.css';

/** Draws a link as a QR image; `qrcode` is imported here only, so it loads with the report alone. */
async function toQr(url: string): Promise<string> {
  const QRCode = await import('qrcode');
  return QRCode.toDataURL(url, { margin: 1, width: 360, errorCorrectionLevel: 'M' });
}

/** The link drawn as a QR image ('' until drawn), and whether drawing it failed. */
function useQrImage(url: string): { img: string; failed: boolean } {
  const [img, setImg] = useState<string>('');
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    setImg('');
    setFailed(false);
    if (!url) return;
    toQr(url).then(
      (data) => live && setImg(data),
      (e: unknown) => {
        console.error('[report] cannot draw the QR code', e);
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [url]);
  return { img, failed };
}

type StopState = 'idle' | 'stopping' | 'stopped' | 'failed';

/** Ending the links given out so far: where that stands, and the action (a no-op without `onStop`). */
function useStopSharing(onStop?: () => Promise<unknown>): [StopState, () => void] {
  const [stop, setStop] = useState<StopState>('idle');
  const stopSharing = () => {
    if (!onStop) return;
    setStop('stopping');
    onStop().then(
      () => setStop('stopped'),
      (e: unknown) => {
        console.error('[report] cannot stop sharing', e);
        setStop('failed');
      },
    );
  };
  return [stop, stopSharing];
}

/**
 * The H5 link of the report as a QR code, so the learner takes the report home on their phone;
 * `onStop` ends the links given out so far (a report shared by mistake).
 */
export function ShareQr({
  url,
  pending,
  onStop,
}: {
  url: string;
  pending: boolean;
  onStop?: () => Promise<unknown>;
}) {
  const { t } = useT();
  const { img, failed } = useQrImage(url);
  const [stop, stopSharing] = useStopSharing(onStop);
  const state =
    stop === 'stopped'
      ? t('report.sharingStopped')
      : img
        ? null
        : failed || (!pending && !url)
          ? t('report.qrFailed')
          : t('report.qrLoading');
  return (
    <Card title={t('report.share')} titleId="report-share" className={styles.share}>
      <p className="muted">{t('report.shareBody')}</p>
      <div className={styles.qrFrame}>
        {img && stop !== 'stopped' ? (
          <img src={img} alt={t('report.qrAlt')} width={240} height={240} />
        ) : null}
        {state ? (
          <span className={styles.qrState} role="status">
            {state}
          </span>
        ) : null}
      </div>
      {url ? (
        <a
          className={`${styles.link} no-print`}
          href={url}
          target="_blank"
          rel="noreferrer"
          data-testid="report-h5-link"
        >
          {t('report.openLink')}
        </a>
      ) : null}
      {onStop && url && stop !== 'stopped' ? (
        <Button
          variant="ghost"
          size="sm"
          className="no-print"
          onClick={stopSharing}
          disabled={stop === 'stopping'}
          data-testid="report-stop-sharing"
        >
          {t('report.stopSharing')}
        </Button>
      ) : null}
      {stop === 'failed' ? (
        <p className="muted" role="alert">
          {t('report.stopSharingFailed')}
        </p>
      ) : null}
    </Card>
  );
}
