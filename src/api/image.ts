import { PRODUCER_BASE } from './contract/endpoints';

/**
 * docs/api.md, "Conventions": media URLs that are neither absolute nor data URLs get the `/producer` prefix.
 * Absolute means `http:`/`https:` or protocol-relative `//`; `blob:` (local recordings) is left alone too.
 */
export function prefixImage(url: string | null | undefined): string {
  if (!url) return '';
  if (/^(https?:)?\/\//i.test(url) || /^(data|blob):/i.test(url)) return url;
  if (url.startsWith(`${PRODUCER_BASE}/`)) return url;
  return `${PRODUCER_BASE}${url.startsWith('/') ? '' : '/'}${url}`;
}
