import { logoutAllSessions, logoutSession } from '../../api/calls';
import { readToken } from '../../api/token';
import { persistLang } from '../i18n';
import { keepDeviceMark } from '../lib/device';
import { resetAccount } from './account';

const resets = new Set<() => void>();

/** A store's way to be emptied by `clearLocalData`; stores register when their module loads. */
export function onClearLocalData(reset: () => void): void {
  resets.add(reset);
}

/**
 * Wipes everything this browser holds for the learner: every store, localStorage, sessionStorage and
 * the token cookie (logout, and code 1002 in docs/api.md, "Conventions"). The UI language is written back afterwards:
 * it is a setting of the kiosk, not the learner's data.
 */
export function clearLocalData(): void {
  for (const reset of resets) reset();
  resetAccount();
  const restoreDevice = keepDeviceMark();
  try {
    localStorage.clear();
    sessionStorage.clear();
  } catch (e) {
    console.error('[session] cannot clear storage', e);
  }
  persistLang();
  restoreDevice();
}

/** How long a logout waits for the server before giving up (the browser is wiped regardless). */
const LOGOUT_TIMEOUT_MS = 10_000;

/**
 * Logout and idle logout, first step: asks the server to revoke the session, so the token is dead on
 * every instance and not only forgotten here; `everywhere` ends every session of the learner. The token is read now, before the caller wipes the
 * browser with `clearLocalData` (which it does without waiting for this). Never rejects.
 */
export function revokeSession(opts: { everywhere?: boolean } = {}): Promise<void> {
  const token = readToken();
  if (!token) return Promise.resolve();
  const call = opts.everywhere ? logoutAllSessions : logoutSession;
  return call(token, { timeoutMs: LOGOUT_TIMEOUT_MS }).then(
    () => undefined,
    (e: unknown) => console.error('[session] the server did not revoke the session', e),
  );
}
