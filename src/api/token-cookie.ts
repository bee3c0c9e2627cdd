/** The token cookie of spec §9: name `user-token`, 604 800 s, path `/`. */
export const TOKEN_COOKIE = 'user-token';
export const TOKEN_MAX_AGE_S = 604_800;

/**
 * The Set-Cookie text of the token. `secure` when the page came over HTTPS (the browser's own view,
 * whatever proxies sit in front): the token then never travels over plain HTTP.
 */
export function tokenCookie(token: string, secure: boolean): string {
  return `${TOKEN_COOKIE}=${encodeURIComponent(token)}; max-age=${TOKEN_MAX_AGE_S}; path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}
