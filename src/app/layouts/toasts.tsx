import { useSignals } from '@preact/signals-react/runtime';
import { t } from '../i18n';
import { dismissToast, toasts } from '../stores/toast';

/**
 * The toast stack. Warnings and errors use role=alert (announced at once), others role=status (polite).
 */
export function Toasts() {
  useSignals();
  const list = toasts.value;
  return (
    <div className="toasts" aria-live="polite">
      {list.map((x) => (
        <div
          key={x.id}
          className={`toast toast-${x.kind}`}
          role={x.kind === 'warning' || x.kind === 'error' ? 'alert' : 'status'}
        >
          <span>{x.msg}</span>
          <button type="button" aria-label={t('common.close')} onClick={() => dismissToast(x.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
