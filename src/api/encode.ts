import type { BodyKind } from './contract';

/** What a call may send: a plain record (encoded per body kind) or a ready FormData (multipart). */
export type Payload = Record<string, unknown> | FormData | undefined;

export interface EncodedRequest {
  url: string;
  body: string | FormData | undefined;
  headers: Record<string, string>;
  /** The body kind actually used, so tests and logs can say what went over the wire. */
  sent: BodyKind;
}

const isBlob = (v: unknown): v is Blob => typeof Blob !== 'undefined' && v instanceof Blob;

function scalar(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v);
}

/** Flattens a record into name/value pairs: arrays repeat the name, null/undefined are left out. */
function pairs(data: Record<string, unknown> | undefined): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(data ?? {})) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) out.push([k, scalar(item)]);
    else out.push([k, scalar(v)]);
  }
  return out;
}

function toFormData(data: Record<string, unknown> | undefined): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(data ?? {})) {
    if (v === undefined || v === null) continue;
    if (isBlob(v)) form.append(k, v, v instanceof File ? v.name : k);
    else form.append(k, scalar(v));
  }
  return form;
}

const hasBlob = (data: Payload) =>
  data instanceof FormData || Object.values(data ?? {}).some((v) => isBlob(v));

/**
 * The encoding of src/api/README.md: GET sends its data as query parameters; other methods send JSON when the content
 * type says so, a multipart form when there are files, otherwise a form-encoded string.
 * `_v` (a timestamp) goes in the query string of every call so no cache can answer it.
 */
export function encodeRequest(
  method: string,
  url: string,
  kind: BodyKind,
  data: Payload,
  headers: Record<string, string> = {},
  now: number = Date.now(),
): EncodedRequest {
  const upper = method.toUpperCase();
  const [path, existing = ''] = url.split('?');
  const query = new URLSearchParams(existing);
  const outHeaders = { ...headers };
  let body: string | FormData | undefined;
  let sent: BodyKind;

  const contentType = Object.entries(outHeaders).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  const wantsJson = kind === 'json' || /application\/json/i.test(contentType ?? '');

  if (upper === 'GET' || upper === 'HEAD') {
    if (data instanceof FormData) throw new TypeError(`${upper} ${url}: a FormData payload needs POST`);
    for (const [k, v] of pairs(data)) query.append(k, v);
    sent = 'query';
  } else if (kind === 'multipart' || hasBlob(data)) {
    body = data instanceof FormData ? data : toFormData(data);
    // The browser writes the multipart boundary itself; a hand-set content type would lack it.
    for (const k of Object.keys(outHeaders)) if (k.toLowerCase() === 'content-type') delete outHeaders[k];
    sent = 'multipart';
  } else if (wantsJson) {
    body = JSON.stringify(data ?? {});
    outHeaders['Content-Type'] = 'application/json;charset=UTF-8';
    sent = 'json';
  } else {
    body = new URLSearchParams(pairs(data as Record<string, unknown> | undefined)).toString();
    outHeaders['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
    sent = 'form';
  }
  query.set('_v', String(now));
  return { url: `${path}?${query.toString()}`, body, headers: outHeaders, sent };
}
