import { type Lang, setLang } from '../i18n';
import { LanguageSwitch } from './language-switch';
import { useT } from '../i18n/use-t';

const OPTIONS = [
  { value: 'zh', label: '中文', lang: 'zh-CN' },
  { value: 'en', label: 'English', lang: 'en' },
] as const satisfies ReadonlyArray<{ value: Lang; label: string; lang: string }>;

/** The language switch wired to the app's language signal. */
export function LanguageToggle() {
  const { t, lang } = useT();
  return <LanguageSwitch value={lang} options={OPTIONS} onChange={setLang} label={t('ui.language')} />;
}
