/** The content codings the server has ready-made copies for, in the order it prefers them. */
export type Coding = 'br' | 'gzip';

/** The file suffix of each coding's copy (scripts/precompress.ts writes them). */
export const CODING_SUFFIX: Record<Coding, string> = { br: '.br', gzip: '.gz' };

/**
 * The coding to answer with for an `Accept-Encoding` header (RFC 9110 §12.5.3): the one with the
 * highest q among `offered`, ties to the earlier in `offered`; `*` stands for any coding not named;
 * q=0 refuses. null: send the bytes as they are (no header, or nothing offered is acceptable).
 */
export function pickCoding(header: string | undefined, offered: readonly Coding[]): Coding | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim());
    if (!name) continue;
    const q = params.map((p) => /^q=([01](?:\.\d{0,3})?)$/.exec(p)).find(Boolean);
    weights.set(name, q ? Number(q[1]) : 1);
  }
  let best: Coding | null = null;
  let bestWeight = 0;
  for (const coding of offered) {
    const w = weights.get(coding) ?? weights.get('*') ?? 0;
    if (w > bestWeight) {
      best = coding;
      bestWeight = w;
    }
  }
  return best;
}
