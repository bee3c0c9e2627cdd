import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Exit {
  code: number | null;
  /** Set when the wrapped command died of a signal (kill -9 → 137). */
  signalled: boolean;
}

/** A command run for a test through tests/support/lifeline.mjs (it cannot outlive the test). */
export interface TestProcess {
  name: string;
  /** The command's own pid (not the wrapper's). */
  pid: number;
  /** Every line it printed, in order, standard output and error together. */
  lines: string[];
  /** Resolves with the first line that matches (now or later); rejects if the process ends first. */
  waitForLine: (match: (line: string) => boolean, what: string) => Promise<string>;
  signal: (signal: NodeJS.Signals) => void;
  exited: Promise<Exit>;
  /** Ends it (SIGTERM, then SIGKILL after `graceMs`) and waits for the exit. */
  stop: (graceMs?: number) => Promise<Exit>;
}

/** Starts `command args` with `env` added to this process's environment. */
export async function startProcess(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<TestProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(ROOT, 'tests/support/lifeline.mjs'), command, ...args],
    { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const lines: string[] = [];
  const waiters: Array<{ match: (l: string) => boolean; resolve: (l: string) => void }> = [];
  let done = false;
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code) => {
      done = true;
      resolve({ code, signalled: code !== null && code > 128 });
    }),
  );
  let pid = 0;
  const gotPid = new Promise<void>((resolve, reject) => {
    exited.then(() => reject(new Error(`${name} ended before it started`)));
    const onLine = (line: string) => {
      const lifeline = /^LIFELINE (\d+)$/.exec(line);
      if (lifeline && !pid) {
        pid = Number(lifeline[1]);
        resolve();
        return;
      }
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.match(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    };
    readline.createInterface({ input: child.stdout! }).on('line', onLine);
    readline.createInterface({ input: child.stderr! }).on('line', onLine);
  });
  await gotPid;
  const waitForLine = (match: (line: string) => boolean, what: string) => {
    const seen = lines.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    if (done)
      return Promise.reject(new Error(`${name} ended before ${what}:\n${lines.slice(-30).join('\n')}`));
    return new Promise<string>((resolve, reject) => {
      waiters.push({ match, resolve });
      exited.then(() => reject(new Error(`${name} ended before ${what}:\n${lines.slice(-30).join('\n')}`)));
    });
  };
  const signal = (sig: NodeJS.Signals) => {
    try {
      if (!done) process.kill(pid, sig);
    } catch (err) {
      // It ended a moment ago and its exit is not seen yet: nothing left to signal.
      if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
    }
  };
  const stop = async (graceMs = 10_000) => {
    if (done) return exited;
    signal('SIGTERM');
    const timer = setTimeout(() => signal('SIGKILL'), graceMs);
    const exit = await exited;
    clearTimeout(timer);
    child.stdin?.end();
    return exit;
  };
  exited.then(() => child.stdin?.end());
  return { name, pid, lines, waitForLine, signal, exited, stop };
}

/** A Node service of this repository run through tsx, as `npm run …` runs it. */
export function startNodeScript(name: string, script: string, args: string[], env: Record<string, string>) {
  return startProcess(name, process.execPath, ['--import', 'tsx', path.join(ROOT, script), ...args], env);
}

/** Parses the pino JSON lines of a service (other lines are skipped). */
export function jsonLines<T = Record<string, unknown>>(lines: string[]): T[] {
  return lines.flatMap((l) => {
    if (!l.startsWith('{')) return [];
    try {
      return [JSON.parse(l) as T];
    } catch {
      return [];
    }
  });
}

/** A port nobody listens on now, for a process started next (and restarted on the same one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
