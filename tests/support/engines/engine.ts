/**
 * The one driver interface the engine journeys (tests/engines/) are written against, so each journey
 * exists once and runs in every engine. It is deliberately small: what a learner does (open a page,
 * click, type) and what a test reads (an expression evaluated in the page, a screenshot). Elements are
 * found by a JavaScript expression evaluated in the page (see ./find.ts), then clicked or typed into
 * through the engine's own input path, so a click is a real user gesture (AudioContext.resume and
 * media playback rules see it as one).
 */
export type EngineName = 'firefox' | 'webkit' | 'wpe';

export interface EnginePage {
  /** Loads `url` and resolves when the document has loaded. */
  goto(url: string): Promise<void>;
  url(): Promise<string>;
  /** Evaluates `expression` in the page; a promise it yields is awaited. The result must be JSON. */
  evaluate<T>(expression: string): Promise<T>;
  /** Clicks the element `find` evaluates to (throws if it is null). */
  click(find: string): Promise<void>;
  /** Types `text` into the element `find` evaluates to. */
  type(find: string, text: string): Promise<void>;
  /**
   * A press at a point of the viewport (CSS pixels from its top left), wherever it lands: a finger on
   * a modal's backdrop, which no element of the page stands for.
   */
  clickAt(point: { x: number; y: number }): Promise<void>;
  /**
   * Sets the size of the page's viewport (WebKitGTK: of the window, which holds only the page). WPE's
   * headless view has no window to size: its viewport stays 800×600 and this does nothing there.
   */
  setSize(size: { width: number; height: number }): Promise<void>;
  screenshot(file: string): Promise<void>;
  /** Errors the page reported: uncaught errors, rejected promises, Content-Security-Policy refusals. */
  errors(): Promise<string[]>;
  /** The page's console warnings and errors so far (for a failure's message). */
  consoleLines(): Promise<string[]>;
  close(): Promise<void>;
}

export interface Engine {
  name: EngineName;
  /** The browser's own version string. */
  version: string;
  /** How long the engine took to launch (ms), for the suite's timing lines. */
  launchMs: number;
  newPage(size: { width: number; height: number }): Promise<EnginePage>;
  close(): Promise<void>;
}

/**
 * Collects what the page reports as broken, for engines whose driver has no event for it (WebKit's
 * classic WebDriver): installed after each load, it sees everything from then on, including later
 * client-side navigation (one document).
 */
export const ERROR_COLLECTOR = `(() => {
  if (window.__engineErrors) return;
  const errors = (window.__engineErrors = []);
  addEventListener('error', (e) => errors.push('error: ' + (e.message || e.type)));
  addEventListener('unhandledrejection', (e) => errors.push('unhandled rejection: ' + (e.reason && (e.reason.stack || e.reason.message) || e.reason)));
  addEventListener('securitypolicyviolation', (e) => errors.push('CSP refused ' + e.blockedURI + ' (' + e.violatedDirective + ') at ' + e.sourceFile + ':' + e.lineNumber + ':' + e.columnNumber + ' ' + e.sample));
  // The page's own warnings and errors, for the failure message of a journey (not an assertion). An
  // error's name, message and cause before its stack: WebKit's stack holds none of them.
  const log = (window.__engineConsole = []);
  const told = (a) => a instanceof Error ? a.name + ': ' + a.message + (a.cause === undefined ? '' : ' (cause: ' + String(a.cause) + ')') + '\\n' + a.stack : String(a);
  for (const level of ['warn', 'error']) {
    const original = console[level];
    console[level] = (...args) => {
      log.push(level + ': ' + args.map(told).join(' '));
      original.apply(console, args);
    };
  }
})()`;
