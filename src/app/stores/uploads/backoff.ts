import { Code } from '../../../api/contract/constants';
import { ApiError } from '../../../api/errors';

/** 1 s, 2 s, 4 s … capped at 60 s, with ±20 % jitter so kiosks in one room do not retry in step. */
export function backoffMs(tries: number, random: () => number = Math.random): number {
  const base = Math.min(60_000, 1000 * 2 ** Math.max(0, tries - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

export type Verdict = 'retry' | 'session' | 'reject';

/**
 * Whether a failed upload may succeed later:
 * - no response, timeouts, unparseable bodies and 5xx / load shedding (503, 429): retry;
 * - 1002 (session expired): keep it and wait for the learner to log in again;
 * - any other answer from the service (the take itself was refused): give up and show why.
 */
export function classifyUploadError(e: unknown): Verdict {
  if (!(e instanceof ApiError)) return 'retry';
  if (e.reason === 'network' || e.reason === 'unparseable') return 'retry';
  if (e.reason === 'aborted') return 'retry';
  if (e.code === Code.LOGIN_EXPIRED) return 'session';
  if (e.status >= 500 || e.status === 429 || e.code === Code.RATE_LIMITED || e.code >= Code.SERVER_ERROR)
    return 'retry';
  return 'reject';
}
