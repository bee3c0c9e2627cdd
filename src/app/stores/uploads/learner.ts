/**
 * Who a pending dub upload belongs to. A shared kiosk sees one learner after another, and IndexedDB
 * outlives a logout, so every stored take carries its learner and the queue sends only the takes of
 * the learner whose token the next request will carry.
 */
import type { UserInfo } from '../../../api/contract';
import { readToken } from '../../../api/token';
import { USER_INFO_KEY, userInfo } from '../account';
import { readJson } from '../storage';

/**
 * The learner the token cookie belongs to right now, or null when nobody is logged in.
 *
 * The cookie, not this tab's signals, decides: the request wrapper sends whatever token the cookie
 * holds, and another tab may have logged in as someone else since this tab last looked. The user id
 * comes from the user info saved with that token (this tab's, or the one another tab saved in
 * localStorage). Without matching user info (a QR login answered without it) the learner is a hash
 * of the token: it names that session without storing the token itself.
 */
export function currentLearner(): string | null {
  const token = readToken();
  if (token === null) return null;
  const info = [userInfo.peek(), readJson<UserInfo>(localStorage, USER_INFO_KEY)].find(
    (i) => i?.token === token,
  );
  return learnerId(token, info ?? null);
}

/** `u:<user id>` when the user info belongs to `token`, otherwise `t:<hash of the token>`. */
export function learnerId(token: string, info: Pick<UserInfo, 'id' | 'token'> | null): string {
  return info && info.token === token ? `u:${info.id}` : `t:${hash53(token).toString(36)}`;
}

/**
 * cyrb53 (public domain): a 53-bit non-cryptographic hash. Enough to tell sessions apart and to keep
 * a 256-bit random token out of IndexedDB; crypto.subtle would need a secure context and an await.
 */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
