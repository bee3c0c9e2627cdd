import { type Lang, setLang } from '../i18n';
import { LanguageSwitch } from './language-switch';
import { useT } from '../i18n/use-t';

const OPTIONS = [
  { value: 'zh', label: '中文', lang: 'zh-CN' },
  { value: 'en', label: 'English', lang: 'en' },
] as const satisfies ReadonlyArray<{ value: Lang; label: string; lang: string }>;

/** The choice shows once its messages are here; if they cannot load, the page keeps its language. */
function choose(l: Lang) {
  setLang(l).catch((e: unknown) => console.error(`[i18n] cannot load the messages for "${l}"`, e));
}

/** The language switch wired to the app's language signal; a press after a failed load tries again. */
export function LanguageToggle() {
  const { t, lang } = useT();
  return <LanguageSwitch value={lang} options={OPTIONS} onChange={choose} label={t('ui.language')} />;
}
