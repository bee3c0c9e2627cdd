import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { LineAttemptSummary, Report, SpeechScore } from '../../src/api/contract';
import type { Database } from '../db/schema';
import { sharedSecret } from '../lib/settings';

/**
 * Signed links to take audio (docs/security.md). A take's wav is served only to its owner's token or
 * through a link the server signed for a short while: `/media/takes/…wav?exp=<epoch s>&sig=<mac>`,
 * mac = HMAC-SHA256(secret, "<key>\n<exp>"). Every answer that names a take's audio (the upload's
 * score, get_run, the report, the shared H5 report) carries a fresh link; the stored score keeps the
 * plain path, so nothing stored goes stale.
 */

/** The settings key of the HMAC secret (shared by every instance through the database). */
const SECRET_KEY = 'take_link_secret';
const TAKES_PREFIX = '/media/takes/';

const secrets = new WeakMap<Kysely<Database>, Promise<Buffer>>();

/** The signing secret, read once per database handle. */
export function takeLinkSecret(db: Kysely<Database>): Promise<Buffer> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = sharedSecret(db, SECRET_KEY);
    secret.catch(() => secrets.delete(db));
    secrets.set(db, secret);
  }
  return secret;
}

const mac = (secret: Buffer, key: string, exp: number) =>
  crypto.createHmac('sha256', secret).update(`${key}\n${exp}`).digest('base64url');

/** True for media keys of learners' takes (`takes/<userId>/…`). */
export const isTakeKey = (key: string): boolean => key.startsWith('takes/');

/** The learner a take key belongs to. */
export const takeOwner = (key: string): string | null => key.split('/')[1] || null;

/** `url` signed for `ttlSeconds` when it is a take's plain `/media/takes/…` path; anything else as it is. */
export function signTakeUrl(secret: Buffer, url: string, ttlSeconds: number, now = Date.now()): string {
  if (!url.startsWith(TAKES_PREFIX) || url.includes('?')) return url;
  const key = url.slice('/media/'.length);
  const exp = Math.floor(now / 1000) + ttlSeconds;
  return `${url}?exp=${exp}&sig=${mac(secret, key, exp)}`;
}

export type TakeLinkCheck = 'ok' | 'expired' | 'invalid' | 'absent';

/** Checks a request's `exp` and `sig` for `key`. */
export function checkTakeLink(
  secret: Buffer,
  key: string,
  query: { exp?: unknown; sig?: unknown },
  now = Date.now(),
): TakeLinkCheck {
  const { exp, sig } = query;
  if (exp === undefined && sig === undefined) return 'absent';
  if (typeof exp !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(exp)) return 'invalid';
  const expected = Buffer.from(mac(secret, key, Number(exp)));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return 'invalid';
  return Number(exp) * 1000 <= now ? 'expired' : 'ok';
}

/** A signer for one answer: the secret is read once, every URL signed with the same expiry. */
export async function takeLinkSigner(
  db: Kysely<Database>,
  ttlSeconds: number,
): Promise<(url: string) => string> {
  const secret = await takeLinkSecret(db);
  const now = Date.now();
  return (url) => signTakeUrl(secret, url, ttlSeconds, now);
}

/** A score as answered: its audio link signed. */
export const signScore = (sign: (url: string) => string, score: SpeechScore): SpeechScore => ({
  ...score,
  audioUrl: sign(score.audioUrl),
  ...(score.melody?.status === 'ready' ? { melody: { ...score.melody, url: sign(score.melody.url) } } : {}),
});

/** A report's take: its audio and its melody version signed. */
const signAttempt = (sign: (url: string) => string, a: LineAttemptSummary): LineAttemptSummary => ({
  ...a,
  audioUrl: sign(a.audioUrl),
  ...(a.melody?.status === 'ready' ? { melody: { ...a.melody, url: sign(a.melody.url) } } : {}),
});

/** A report as answered: every take's audio link, and the dubbed video's (a run's media), signed. */
export function signReport(sign: (url: string) => string, report: Report): Report {
  const dubVideo = report.dubVideo?.url
    ? { ...report.dubVideo, url: sign(report.dubVideo.url) }
    : report.dubVideo;
  if (!report.dubbing) return { ...report, ...(dubVideo ? { dubVideo } : {}) };
  return {
    ...report,
    ...(dubVideo ? { dubVideo } : {}),
    dubbing: {
      ...report.dubbing,
      lines: report.dubbing.lines.map((l) => ({
        ...l,
        first: l.first ? signAttempt(sign, l.first) : null,
        second: l.second ? signAttempt(sign, l.second) : null,
      })),
    },
  };
}
