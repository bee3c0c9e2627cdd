import type { Lang } from './format';
import { type ErrorId, errorRowsZh, setErrorRows } from './errors';
import { errorsEn } from './errors.en';

/** Every error row in both languages, for the server, the reviewer lists and the tests. */
export const ERROR_MESSAGES: Record<Lang, Record<ErrorId, string>> = { zh: errorRowsZh(), en: errorsEn };

setErrorRows('en', errorsEn);

export { ERROR_IDS, type ErrorId, errorText, isErrorId } from './errors';
