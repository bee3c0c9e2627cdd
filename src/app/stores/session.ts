import { persistLang } from '../i18n';
import { resetAccount } from './account';
import { resetPrpo } from './prpo';
import { resetPrpt } from './prpt';

/**
 * Wipes everything this browser holds for the learner: localStorage, sessionStorage, every store, and the
 * token cookie (spec §4 logout, spec §8 code 1002). The UI language is written back afterwards: it is a
 * setting of the kiosk, not the learner's data.
 */
export function clearLocalData(): void {
  resetPrpo();
  resetPrpt();
  resetAccount();
  try {
    localStorage.clear();
    sessionStorage.clear();
  } catch (e) {
    console.error('[session] cannot clear storage', e);
  }
  persistLang();
}
