import { baseFor } from './config';
import type { BodyKind, Origin } from './contract/endpoints';
import { encodeRequest, type EncodedRequest, type Payload } from './encode';
import { ApiError, CLIENT_CODE, MSG_ABORTED, MSG_NO_RESPONSE } from './errors';
import { interpretResponse, type RawResponse } from './interpret';
import { readToken } from './token';

/** Spec §9: every call gives up after 60 s. */
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
  /** How a non-GET call encodes `data` (spec §7); files always go multipart. Default `form`. */
  body?: BodyKind;
  data?: Payload;
  headers?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** When given, the call goes through XMLHttpRequest, the only browser API that reports upload progress. */
  onUploadProgress?: (p: UploadProgress) => void;
}

type Transport = (
  req: EncodedRequest,
  method: string,
  signal: AbortSignal,
  opts: RequestOptions,
) => Promise<RawResponse | null>;

const fetchTransport: Transport = async (req, method, signal) => {
  let res: Response;
  try {
    res = await fetch(req.url, { method, headers: req.headers, body: req.body, credentials: 'omit', signal });
  } catch (e) {
    if (signal.aborted) throw e;
    return null; // DNS, refused connection, CORS, offline: "no response"
  }
  try {
    return { status: res.status, text: await res.text() };
  } catch (e) {
    if (signal.aborted) throw e;
    return { status: res.status, text: '' };
  }
};

const xhrTransport: Transport = (req, method, signal, opts) =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, req.url, true);
    // No credentials cross-origin. Same-origin XMLHttpRequest always carries the page's cookies and
    // cannot be told otherwise (only fetch's `credentials: 'omit'` can); harmless here, because the
    // services authenticate by the `token` header alone. Pinned in tests/e2e/request-wrapper.test.ts.
    xhr.withCredentials = false;
    for (const [k, v] of Object.entries(req.headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      opts.onUploadProgress?.({
        loaded: e.loaded,
        total: e.total,
        fraction: e.lengthComputable && e.total > 0 ? e.loaded / e.total : null,
      });
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText ?? '' });
    xhr.onerror = () => resolve(null);
    xhr.onabort = () => reject(signal.reason ?? new DOMException('Aborted', 'AbortError'));
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(req.body ?? null);
  });

/**
 * The one request wrapper (spec §7). Every named call in `calls.ts` goes through here.
 * Returns the envelope's `data` on code 200; otherwise throws an `ApiError` from the catalogue (spec §8).
 * The wrapper never shows a toast itself: user actions show `err.msg`, data loaders only log (spec §8),
 * and 1002 is handled once, by the bus listener.
 */
export async function request<T = unknown>(opts: RequestOptions): Promise<T> {
  const method = opts.method.toUpperCase();
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
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

  const transport = opts.onUploadProgress ? xhrTransport : fetchTransport;
  let raw: RawResponse | null;
  try {
    raw = await transport(encoded, method, controller.signal, opts);
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
