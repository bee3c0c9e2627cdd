import { type FormEvent, useId, useRef, useState } from 'react';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { errorText } from '../../i18n/error-text';
import { useT } from '../../i18n/use-t';
import styles from './login-screen.module.css';

export interface PasswordFormProps {
  /** Logs in; rejects with the API error on failure. */
  onSubmit: (account: string, password: string) => Promise<unknown>;
  onSuccess: () => void;
}

type Field = 'account' | 'password';

/** Account + password with errors next to the field they concern, and the server's message in the form. */
export function PasswordForm({ onSubmit, onSuccess }: PasswordFormProps) {
  const { t, lang } = useT();
  const id = useId();
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [reveal, setReveal] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const accountRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next: Partial<Record<Field, string>> = {};
    if (!account.trim()) next.account = t('signin.accountRequired');
    if (!password) next.password = t('signin.passwordRequired');
    setErrors(next);
    setFormError(null);
    if (next.account) return accountRef.current?.focus();
    if (next.password) return passwordRef.current?.focus();
    setBusy(true);
    try {
      await onSubmit(account.trim(), password);
      onSuccess();
    } catch (err) {
      setBusy(false);
      const data = (err as { data?: { field?: string } }).data;
      const msg = errorText(err, lang);
      if (data?.field === 'account' || data?.field === 'password') {
        setErrors({ [data.field]: msg });
      } else {
        setFormError(msg);
      }
      passwordRef.current?.select();
    }
  };

  const fieldProps = (field: Field) => ({
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${id}-${field}-error` : undefined,
  });

  return (
    <Card title={t('signin.form.title')} titleId={`${id}-title`}>
      <form className={styles.form} onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={`${id}-account`}>
            {t('login.account')}
          </label>
          <input
            ref={accountRef}
            id={`${id}-account`}
            name="account"
            className={styles.input}
            autoComplete="username"
            autoCapitalize="off"
            spellCheck={false}
            placeholder={t('signin.accountPlaceholder')}
            value={account}
            onChange={(e) => setAccount(e.target.value)}
            {...fieldProps('account')}
          />
          {errors.account ? (
            <span id={`${id}-account-error`} className={styles.error}>
              {errors.account}
            </span>
          ) : null}
        </div>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={`${id}-password`}>
            {t('login.password')}
          </label>
          <div className={styles.inputWrap}>
            <input
              ref={passwordRef}
              id={`${id}-password`}
              name="password"
              type={reveal ? 'text' : 'password'}
              className={styles.input}
              autoComplete="current-password"
              placeholder={t('signin.passwordPlaceholder')}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              {...fieldProps('password')}
            />
            <Button
              variant="ghost"
              size="sm"
              className={styles.reveal}
              aria-pressed={reveal}
              onClick={() => setReveal((r) => !r)}
            >
              {reveal ? t('signin.hidePassword') : t('signin.showPassword')}
            </Button>
          </div>
          {errors.password ? (
            <span id={`${id}-password-error`} className={styles.error}>
              {errors.password}
            </span>
          ) : null}
        </div>
        {formError ? (
          <p className={styles.formError} role="alert">
            {formError}
          </p>
        ) : null}
        <Button type="submit" variant="primary" size="lg" block loading={busy}>
          {busy ? t('login.submitting') : t('login.submit')}
        </Button>
      </form>
    </Card>
  );
}
