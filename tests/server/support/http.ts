import type { Envelope } from '../../../src/api/contract';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary answer shapes and assert on them
export type AnyEnvelope = Envelope<any>;

export interface ApiAnswer {
  status: number;
  body: AnyEnvelope;
  headers: Headers;
}

/** A tiny client for the real HTTP server, with the `token` header the web app sends. */
export function client(baseUrl: string) {
  let token: string | undefined;
  const send = async (
    method: string,
    path: string,
    init: {
      json?: unknown;
      form?: Record<string, string>;
      query?: Record<string, string>;
      headers?: Record<string, string>;
    } = {},
  ): Promise<ApiAnswer> => {
    const url = new URL(baseUrl + path);
    for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { ...(token ? { token } : {}), ...init.headers };
    let body: string | undefined;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: AnyEnvelope;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`${method} ${path}: answer is not JSON (HTTP ${res.status}): ${text.slice(0, 200)}`);
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  return {
    setToken(t: string | undefined) {
      token = t;
    },
    get: (path: string, query?: Record<string, string>, headers?: Record<string, string>) =>
      send('GET', path, { query, headers }),
    postJson: (path: string, json: unknown) => send('POST', path, { json }),
    postForm: (path: string, form: Record<string, string>) => send('POST', path, { form }),
    send,
    /** Logs in with account + password and keeps the token for later calls. */
    async login(account: string, password: string) {
      const res = await send('POST', '/producer/site_products/login_pwd', { json: { account, password } });
      if (res.body.code !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
      token = res.body.data.token;
      return res.body.data as { id: string; token: string; account: string; nickname: string };
    },
  };
}
export type Client = ReturnType<typeof client>;
