import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router-dom';
import styles from './button.module.css';
import { cx } from './cx';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg';

interface Look {
  variant?: ButtonVariant;
  size?: ButtonSize;
  block?: boolean;
  icon?: ReactNode;
}

export function buttonClass({ variant = 'secondary', size = 'md', block }: Look, extra?: string): string {
  return cx(styles.button, styles[variant], size !== 'md' && styles[size], block && styles.block, extra);
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, Look {
  /** Shows a spinner and blocks further presses while an action runs. */
  loading?: boolean;
}

export function Button({
  variant,
  size,
  block,
  icon,
  loading = false,
  className,
  children,
  disabled,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClass({ variant, size, block }, className)}
      data-variant={variant ?? 'secondary'}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? <span className={styles.spinner} aria-hidden="true" /> : icon}
      {children}
    </button>
  );
}

export interface ButtonLinkProps extends LinkProps, Look {}

/** A link that looks like a button: navigation stays a link for screen readers and middle-click. */
export function ButtonLink({ variant, size, block, icon, className, children, ...rest }: ButtonLinkProps) {
  return (
    <Link
      className={buttonClass({ variant, size, block }, className)}
      data-variant={variant ?? 'secondary'}
      {...rest}
    >
      {icon}
      {children}
    </Link>
  );
}
