import { LANGUAGE_NAMES } from '../../i18n/language-names';
import { LANGS, type Lang, setLang } from '../i18n';
import { LanguageSwitch } from './language-switch';
import { useT } from '../i18n/use-t';

const OPTIONS = LANGS.map((value) => ({
  value,
  label: LANGUAGE_NAMES[value].label,
  lang: LANGUAGE_NAMES[value].tag,
}));

/** The choice shows once its messages are here; if they cannot load, the page keeps its language. */
function choose(l: Lang) {
  setLang(l).catch((e: unknown) => console.error(`[i18n] cannot load the messages for "${l}"`, e));
}

/** The language switch wired to the app's language signal; a press after a failed load tries again. */
export function LanguageToggle() {
  const { t, lang } = useT();
  return <LanguageSwitch value={lang} options={OPTIONS} onChange={choose} label={t('ui.language')} />;
}
