import styles from './language-switch.module.css';

export interface LanguageOption<L extends string> {
  value: L;
  /** The language's own name ("中文", "English"), so anyone can find theirs. */
  label: string;
  /** BCP 47 tag of the label, so a screen reader pronounces it right. */
  lang: string;
}

export interface LanguageSwitchProps<L extends string> {
  value: L;
  options: ReadonlyArray<LanguageOption<L>>;
  onChange: (value: L) => void;
  /** Accessible name of the group ("语言" / "Language"). */
  label: string;
}

/** Two toggle buttons rather than a select: one press on a kiosk, both choices visible. */
export function LanguageSwitch<L extends string>({
  value,
  options,
  onChange,
  label,
}: LanguageSwitchProps<L>) {
  return (
    <fieldset className={styles.group} style={{ margin: 0 }}>
      <legend className="visually-hidden">{label}</legend>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          lang={o.lang}
          className={styles.option}
          aria-pressed={o.value === value}
          onClick={() => onChange(o.value)}
        >
          {o.label}
        </button>
      ))}
    </fieldset>
  );
}
