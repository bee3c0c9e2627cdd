import { TOKEN_COOKIE, tokenCookie } from './token-cookie';

export { TOKEN_COOKIE, TOKEN_MAX_AGE_S } from './token-cookie';

/**
 * The token, or null when the cookie is missing, empty, or holds the text `undefined` (an old client
 * bug wrote `String(undefined)` into it; spec §6 says such a cookie means "no token").
 */
export function readToken(): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== TOKEN_COOKIE) continue;
    const value = decodeURIComponent(part.slice(eq + 1).trim());
    return value && value !== 'undefined' ? value : null;
  }
  return null;
}

const pageIsHttps = () => typeof location !== 'undefined' && location.protocol === 'https:';

export function writeToken(token: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is async and missing in Firefox and older Safari; the next request must see the token at once.
  document.cookie = tokenCookie(token, pageIsHttps());
}

export function removeToken(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: see writeToken.
  document.cookie = `${TOKEN_COOKIE}=; max-age=0; path=/; SameSite=Lax${pageIsHttps() ? '; Secure' : ''}`;
}
