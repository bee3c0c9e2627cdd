import { type ReactNode, useEffect, useId, useRef } from 'react';
import styles from './modal.module.css';

export interface ModalProps {
  open: boolean;
  title: ReactNode;
  /** Called on Escape, on a backdrop press and by the caller's own buttons. */
  onClose: () => void;
  children?: ReactNode;
  actions?: ReactNode;
}

/**
 * A modal on the native <dialog>: the browser traps focus, closes on Escape and makes the rest
 * of the page inert, which no hand-rolled overlay gets fully right.
 */
export function Modal({ open, title, onClose, children, actions }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
    }
  }, [open]);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the backdrop press mirrors Escape, which onCancel handles
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        // A press on the backdrop lands on the dialog element itself.
        if (e.target === ref.current) onClose();
      }}
    >
      {open ? (
        <div className={styles.inner}>
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
          {children}
          {actions ? <div className={styles.actions}>{actions}</div> : null}
        </div>
      ) : null}
    </dialog>
  );
}
