/**
 * A bench's server runs in its own Node process (never in the process that generates the load), and
 * talks to the bench over the IPC channel: it sends `{ ready: … }` once it listens and answers
 * commands (e.g. start/stop a CPU profile) with `{ done: <command id> }`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import inspector from 'node:inspector/promises';
import fs from 'node:fs';

const ROOT = path.resolve(import.meta.dirname, '..');

export interface Child<Ready> {
  process: ChildProcess;
  ready: Ready;
  /** Sends a command and waits for the child's `{ done: id, data? }`; resolves with `data`. */
  command: <T = unknown>(cmd: Record<string, unknown>) => Promise<T>;
  stop: () => Promise<void>;
}

export function startChild<Ready>(
  file: string,
  env: Record<string, string | undefined>,
  init?: unknown,
  nodeFlags: string[] = [],
): Promise<Child<Ready>> {
  // stdout goes nowhere (a server's request log costs what it costs to format and write, as on a host
  // whose log goes to a file); stderr is shown.
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', path.join(ROOT, file)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  let nextId = 1;
  const waiting = new Map<number, (data: unknown) => void>();
  child.on('message', (m: { done?: number; data?: unknown }) => {
    if (typeof m.done === 'number') waiting.get(m.done)?.(m.data);
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`${file} exited early with code ${code}`));
    child.once('exit', onExit);
    child.once('message', (m: { ready?: Ready }) => {
      if (!m.ready) return reject(new Error(`${file} sent ${JSON.stringify(m)} before it was ready`));
      child.off('exit', onExit);
      resolve({
        process: child,
        ready: m.ready,
        command: <T>(cmd: Record<string, unknown>) =>
          new Promise<T>((done) => {
            const id = nextId++;
            waiting.set(id, (data) => {
              waiting.delete(id);
              done(data as T);
            });
            child.send({ ...cmd, id });
          }),
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
    if (init !== undefined) child.send({ init });
  });
}

/** In a child: the `init` message the parent sent, if it sends one. */
export function receiveInit<T>(): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: { init?: T }) => {
      if (m.init === undefined) return;
      process.off('message', on);
      resolve(m.init);
    };
    process.on('message', on);
  });
}

/** In a child: answers the parent's commands (`{ cmd, id, … }`) with `{ done: id, data }`. */
export function serveCommands(handlers: Record<string, (m: Record<string, unknown>) => unknown>): void {
  process.on('message', async (m: Record<string, unknown>) => {
    if (typeof m.id !== 'number' || typeof m.cmd !== 'string' || !handlers[m.cmd]) return;
    const data = await handlers[m.cmd](m);
    process.send?.({ done: m.id, data });
  });
}

/**
 * In a child: answers `profile-start` / `profile-stop {file}` with V8's sampling CPU profiler (the
 * same sampler as `node --cpu-prof`, started and stopped around one measured call instead of the
 * whole process), writing a `.cpuprofile` that bench/cpu-profile.ts prints; and `cpu-start` /
 * `cpu-stop`, which answers the CPU microseconds used in between.
 */
export function serveProfilerCommands(): void {
  const session = new inspector.Session();
  session.connect();
  let cpu = process.cpuUsage();
  serveCommands({
    // CPU time this process used (all its threads) between the two: the figure that stays honest
    // when other work on the machine slows every wall-clock measure down.
    'cpu-start': () => {
      cpu = process.cpuUsage();
    },
    'cpu-stop': () => {
      const used = process.cpuUsage(cpu);
      return used.user + used.system;
    },
    'profile-start': async (m) => {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: Number(m.intervalUs ?? 500) });
      await session.post('Profiler.start');
    },
    'profile-stop': async (m) => {
      const { profile } = await session.post('Profiler.stop');
      const file = String(m.file);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(profile));
    },
  });
}

/** In a child: exits cleanly on SIGTERM/SIGINT after `close`. */
export function closeOnSignal(close: () => Promise<void>): void {
  const stop = () => {
    close()
      .catch((err) => console.error(err))
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // The bench died without stopping us: do not linger.
  process.once('disconnect', stop);
}
