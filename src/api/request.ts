import { baseFor } from './config';
import type { BodyKind, Origin } from './contract/endpoints';
import { encodeRequest, type EncodedRequest, type Payload } from './encode';
import { ApiError, CLIENT_CODE, MSG_ABORTED, MSG_NO_RESPONSE } from './errors';
import { interpretResponse, type RawResponse } from './interpret';
import { readToken } from './token';

/** Every call gives up after 60 s (src/api/README.md). */
export const REQUEST_TIMEOUT_MS = 60_000;

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0..1, or null when the total is unknown. */
  fraction: number | null;
}

export interface RequestOptions {
  method: string;
  /** Path below the origin's base, e.g. `/site_products/qr_url`. */
  path: string;
  origin?: Origin;
  /** How a non-GET call encodes `data` (encode.ts); files always go multipart. Default `form`. */
  body?: BodyKind;
  data?: Payload;
  headers?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * Told when the body starts to go (fraction null: fetch cannot report a request body's progress)
   * and when the answer arrives (1). XMLHttpRequest could report more, but a same-origin one always
   * carries the page's cookies, and calls send no credentials (src/api/README.md).
   */
  onUploadProgress?: (p: UploadProgress) => void;
}

/** Bytes of a request body, when known before sending (for the upload progress events). */
function bodyBytes(body: EncodedRequest['body']): number {
  if (typeof body === 'string') return new TextEncoder().encode(body).length;
  if (body instanceof FormData) {
    let total = 0;
    for (const [, v] of body) total += typeof v === 'string' ? v.length : v.size;
    return total;
  }
  return 0;
}

/** The one transport: fetch without credentials, whatever the call. */
async function send(
  req: EncodedRequest,
  method: string,
  signal: AbortSignal,
  opts: RequestOptions,
): Promise<RawResponse | null> {
  const total = opts.onUploadProgress ? bodyBytes(req.body) : 0;
  opts.onUploadProgress?.({ loaded: 0, total, fraction: null });
  let res: Response;
  try {
    res = await fetch(req.url, { method, headers: req.headers, body: req.body, credentials: 'omit', signal });
  } catch (e) {
    if (signal.aborted) throw e;
    return null; // DNS, refused connection, CORS, offline: "no response"
  }
  opts.onUploadProgress?.({ loaded: total, total, fraction: 1 });
  try {
    return { status: res.status, text: await res.text() };
  } catch (e) {
    if (signal.aborted) throw e;
    return { status: res.status, text: '' };
  }
}

/**
 * The language the learner chose, as the app declares it on the page (`<html lang>`): the services
 * word their answers in it (docs/api.md, "Words in the learner's language"), not in the browser's.
 */
function pageLanguage(): Record<string, string> {
  const lang = typeof document === 'undefined' ? '' : document.documentElement.lang;
  return lang ? { 'Accept-Language': lang } : {};
}

/**
 * The one request wrapper (src/api/README.md). Every named call in `calls.ts` goes through here.
 * Returns the envelope's `data` on code 200; otherwise throws an `ApiError` from the catalogue (errors.ts).
 * The wrapper never shows a toast itself: user actions show `err.msg`, data loaders only log (app/stores/loader.ts),
 * and 1002 is handled once, by the bus listener.
 */
export async function request<T = unknown>(opts: RequestOptions): Promise<T> {
  const method = opts.method.toUpperCase();
  const headers: Record<string, string> = { Accept: 'application/json', ...pageLanguage(), ...opts.headers };
  const token = readToken();
  if (token) headers.token = token;
  const encoded = encodeRequest(
    method,
    baseFor(opts.origin ?? 'producer') + opts.path,
    opts.body ?? 'form',
    opts.data,
    headers,
  );

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('Timed out', 'TimeoutError'));
  }, opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const onCallerAbort = () => controller.abort(opts.signal?.reason);
  if (opts.signal?.aborted) onCallerAbort();
  else opts.signal?.addEventListener('abort', onCallerAbort, { once: true });

  let raw: RawResponse | null;
  try {
    raw = await send(encoded, method, controller.signal, opts);
  } catch {
    // Only aborts reach here (transports turn network failures into `null`).
    if (timedOut) {
      throw new ApiError({
        code: CLIENT_CODE.NO_RESPONSE,
        msg: MSG_NO_RESPONSE,
        reason: 'network',
        timedOut: true,
      });
    }
    throw new ApiError({ code: CLIENT_CODE.ABORTED, msg: MSG_ABORTED, reason: 'aborted' });
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCallerAbort);
  }
  return interpretResponse<T>(raw);
}
