export type PartPrefix = '/prpo' | '/prpt';

/** Spec §2: the prefix is `/prpt` when the current path contains `prpt`, otherwise `/prpo`. */
export function partPrefix(pathname: string): PartPrefix {
  return pathname.includes('prpt') ? '/prpt' : '/prpo';
}

/** `{prefix}/login?redirect=<path+search>`: where an unauthenticated or expired visit goes. */
export function loginPathFor(pathWithSearch: string): string {
  const prefix = partPrefix(pathWithSearch.split('?')[0]);
  return `${prefix}/login?redirect=${encodeURIComponent(pathWithSearch)}`;
}

export function isLoginPath(pathname: string): boolean {
  return /^\/prp[ot]\/login\/?$/.test(pathname);
}

/**
 * Where to go after login: the `redirect` parameter when it is a path on this site, else the part's home.
 * Only `/x` paths are accepted (never `//host` or `https:`), so the parameter cannot send a learner away.
 */
export function afterLoginPath(redirect: string | null, pathname: string): string {
  if (redirect?.startsWith('/') && !redirect.startsWith('//') && !redirect.startsWith('/\\')) {
    if (!isLoginPath(redirect.split('?')[0])) return redirect;
  }
  return partPrefix(pathname);
}
