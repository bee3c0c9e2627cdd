/**
 * A minimal W3C WebDriver (classic, HTTP) client over fetch, for WebKitWebDriver: the handful of
 * endpoints the journeys need (https://www.w3.org/TR/webdriver2/#endpoints). No dependency.
 */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

export class WebDriverError extends Error {
  override name = 'WebDriverError';
}

export class WebDriverSession {
  private constructor(
    private readonly base: string,
    readonly id: string,
    readonly capabilities: Record<string, unknown>,
  ) {}

  static async create(
    base: string,
    capabilities: Record<string, unknown>,
    timeoutMs = COMMAND_TIMEOUT_MS,
  ): Promise<WebDriverSession> {
    const value = await call<{ sessionId: string; capabilities: Record<string, unknown> }>(
      base,
      'POST',
      '/session',
      { capabilities: { alwaysMatch: capabilities } },
      timeoutMs,
    );
    return new WebDriverSession(base, value.sessionId, value.capabilities);
  }

  private send<T>(method: string, path: string, body?: unknown): Promise<T> {
    return call<T>(this.base, method, `/session/${this.id}${path}`, body);
  }

  setTimeouts(timeouts: { script?: number; pageLoad?: number; implicit?: number }) {
    return this.send('POST', '/timeouts', timeouts);
  }
  navigate(url: string) {
    return this.send('POST', '/url', { url });
  }
  url() {
    return this.send<string>('GET', '/url');
  }
  /** Runs `body` (a function body; `arguments` holds `args`) and returns its value. */
  execute<T>(body: string, args: unknown[] = []) {
    return this.send<T>('POST', '/execute/sync', { script: body, args });
  }
  /** Runs `body`, whose last argument is the callback that ends it with a value. */
  executeAsync<T>(body: string, args: unknown[] = []) {
    return this.send<T>('POST', '/execute/async', { script: body, args });
  }
  /** The element reference an `execute` returned, or null when it returned no element. */
  static elementId(value: unknown): string | null {
    return value && typeof value === 'object' && ELEMENT in value
      ? String((value as Record<string, unknown>)[ELEMENT])
      : null;
  }
  click(elementId: string) {
    return this.send('POST', `/element/${elementId}/click`, {});
  }
  sendKeys(elementId: string, text: string) {
    return this.send('POST', `/element/${elementId}/value`, { text });
  }
  /** A mouse press and release at a point of the viewport (https://www.w3.org/TR/webdriver2/#actions). */
  async pressAt(point: { x: number; y: number }) {
    await this.send('POST', '/actions', {
      actions: [
        {
          type: 'pointer',
          id: 'mouse',
          parameters: { pointerType: 'mouse' },
          actions: [
            {
              type: 'pointerMove',
              duration: 0,
              origin: 'viewport',
              x: Math.round(point.x),
              y: Math.round(point.y),
            },
            { type: 'pointerDown', button: 0 },
            { type: 'pointerUp', button: 0 },
          ],
        },
      ],
    });
    await this.send('DELETE', '/actions');
  }
  setWindowRect(rect: { width: number; height: number }) {
    return this.send('POST', '/window/rect', rect);
  }
  /** The viewport as a PNG. */
  async screenshot(): Promise<Buffer> {
    return Buffer.from(await this.send<string>('GET', '/screenshot'), 'base64');
  }
  delete() {
    return call(this.base, 'DELETE', `/session/${this.id}`);
  }
}

/**
 * How long one command may take. The page's own waits are the journeys' (each evaluation is short), so
 * a command that runs this long has hung: it fails naming its endpoint rather than after undici's 300 s
 * with a bare "fetch failed".
 */
const COMMAND_TIMEOUT_MS = 90_000;

async function call<T>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs = COMMAND_TIMEOUT_MS,
): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  }).catch((err: Error) => {
    const what =
      typeof body === 'object' && body && 'script' in body ? ` ${String(body.script).slice(0, 300)}` : '';
    throw new WebDriverError(
      `${method} ${path}${what}: ${err.name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : err.message}`,
      { cause: err },
    );
  });
  const answer = (await res.json()) as { value: T & { error?: string; message?: string } };
  if (!res.ok) {
    const v = answer.value;
    throw new WebDriverError(`${method} ${path}: ${v?.error ?? res.status}: ${v?.message ?? ''}`);
  }
  return answer.value;
}
