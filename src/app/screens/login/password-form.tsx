import { type FormEvent, type RefObject, useId, useRef, useState } from 'react';
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

/** The error under a field, tied to it by `aria-describedby` (`fieldA11y`). */
function FieldError({ id, text }: { id: string; text: string | undefined }) {
  return text ? (
    <span id={id} className={styles.error}>
      {text}
    </span>
  ) : null;
}

const fieldA11y = (id: string, error: string | undefined) => ({
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? id : undefined,
});

interface FieldProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  inputRef: RefObject<HTMLInputElement | null>;
  error: string | undefined;
}

function AccountField({ id, value, onChange, inputRef, error }: FieldProps) {
  const { t } = useT();
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {t('login.account')}
      </label>
      <input
        ref={inputRef}
        id={id}
        name="account"
        className={styles.input}
        autoComplete="username"
        autoCapitalize="off"
        spellCheck={false}
        placeholder={t('signin.accountPlaceholder')}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        {...fieldA11y(`${id}-error`, error)}
      />
      <FieldError id={`${id}-error`} text={error} />
    </div>
  );
}

/** The password, with a button that shows it as text while pressed. */
function PasswordField({ id, value, onChange, inputRef, error }: FieldProps) {
  const { t } = useT();
  const [reveal, setReveal] = useState(false);
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {t('login.password')}
      </label>
      <div className={styles.inputWrap}>
        <input
          ref={inputRef}
          id={id}
          name="password"
          type={reveal ? 'text' : 'password'}
          className={styles.input}
          autoComplete="current-password"
          placeholder={t('signin.passwordPlaceholder')}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          {...fieldA11y(`${id}-error`, error)}
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
      <FieldError id={`${id}-error`} text={error} />
    </div>
  );
}

/** Account + password with errors next to the field they concern, and the server's message in the form. */
export function PasswordForm({ onSubmit, onSuccess }: PasswordFormProps) {
  const { t, lang } = useT();
  const id = useId();
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
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

  const refs = { account: accountRef, password: passwordRef };
  const field = (name: Field) => ({ id: `${id}-${name}`, inputRef: refs[name], error: errors[name] });

  return (
    <Card title={t('signin.form.title')} titleId={`${id}-title`}>
      <form className={styles.form} onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
        <AccountField {...field('account')} value={account} onChange={setAccount} />
        <PasswordField {...field('password')} value={password} onChange={setPassword} />
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
