import { bus } from './bus';
import { Code } from './contract/constants';
import {
  ApiError,
  MSG_DEFAULT,
  MSG_LOGIN_EXPIRED,
  MSG_NO_RESPONSE,
  MSG_UNPARSEABLE_500,
  MSG_UNPARSEABLE_OTHER,
} from './errors';

/** What a transport got back: null when no response arrived at all. */
export interface RawResponse {
  status: number;
  text: string;
}

interface Envelope {
  code: number;
  msg?: unknown;
  data?: unknown;
}

function parseEnvelope(text: string): Envelope | null {
  try {
    const json: unknown = JSON.parse(text);
    if (json && typeof json === 'object' && typeof (json as Envelope).code === 'number')
      return json as Envelope;
    return null;
  } catch {
    return null;
  }
}

function currentPath(): string {
  return typeof window === 'undefined' ? '/' : window.location.pathname + window.location.search;
}

/**
 * Turns a response into the call's `data` or throws the ApiError of the matching catalogue row (src/api/errors.ts, docs/api.md "Conventions").
 * Code 1002 also goes out on the bus: the app's single listener clears the session and routes to login,
 * so no call site has to handle expiry.
 */
export function interpretResponse<T>(raw: RawResponse | null): T {
  if (!raw || raw.text.trim() === '') {
    throw new ApiError({ code: 0, msg: MSG_NO_RESPONSE, reason: 'network', status: raw?.status ?? 0 });
  }
  const env = parseEnvelope(raw.text);
  if (!env) {
    const msg = raw.status === 500 ? MSG_UNPARSEABLE_500 : MSG_UNPARSEABLE_OTHER;
    throw new ApiError({ code: raw.status, msg, reason: 'unparseable', status: raw.status });
  }
  if (env.code === Code.OK) return env.data as T;
  if (env.code === Code.LOGIN_EXPIRED) {
    bus.emit('sessionExpired', { code: env.code, msg: MSG_LOGIN_EXPIRED, path: currentPath() });
    throw new ApiError({
      code: env.code,
      msg: MSG_LOGIN_EXPIRED,
      data: env.data,
      reason: 'server',
      status: raw.status,
    });
  }
  const msg = typeof env.msg === 'string' && env.msg.trim() ? env.msg : MSG_DEFAULT;
  throw new ApiError({ code: env.code, msg, data: env.data, reason: 'server', status: raw.status });
}
