import { useSignals } from '@preact/signals-react/runtime';
import { type FormEvent, useState } from 'react';
import { t } from '../i18n';
import { loginWithPassword } from '../stores/account';
import { PlaceholderPage } from './placeholder-page';
import { useAfterLogin } from './use-after-login';

/**
 * A working account + password login until the screens work builds the real login (QR + form).
 * Errors are shown by the store action (toast); success returns to the `redirect` page.
 */
export function LoginPlaceholder({ titleKey }: { titleKey: 'page.prpo.login' | 'page.prpt.login' }) {
  useSignals();
  const done = useAfterLogin();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    try {
      await loginWithPassword(String(form.get('account') ?? ''), String(form.get('password') ?? ''));
      done();
    } catch {
      setBusy(false); // already shown by the action
    }
  };

  return (
    <PlaceholderPage titleKey={titleKey}>
      <form onSubmit={submit} className="login-form">
        <label>
          {t('login.account')}
          <input name="account" autoComplete="username" required />
        </label>
        <label>
          {t('login.password')}
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? t('login.submitting') : t('login.submit')}
        </button>
      </form>
    </PlaceholderPage>
  );
}
