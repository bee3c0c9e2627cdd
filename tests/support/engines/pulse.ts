import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startProcess, type TestProcess } from '../processes';
import { requireBinaries } from './binaries';

const run = promisify(execFile);

/** The null sink a wav is played into; its monitor, remapped, is the browsers' default microphone. */
const MIC_FEED = 'mic_feed';

export interface Pulse {
  /** For a browser's environment: `PULSE_SERVER=unix:…` reaches this server and no other. */
  env: Record<string, string>;
  /**
   * Plays `wav` into the microphone over and over until the returned stop is called (a take may
   * start anywhere in the file, as with Chromium's looping fake device).
   */
  loopMicrophone: (wav: string) => Promise<() => Promise<void>>;
  stop: () => Promise<void>;
}

/**
 * A private PulseAudio server (its own runtime folder and socket, no D-Bus, no user config) with two
 * null sinks: `speakers`, the default output, so an AudioContext has a device to run on (without one
 * Firefox keeps it suspended), and `mic_feed`, whose monitor is remapped as `mic`, the default input.
 */
export async function startPulse(): Promise<Pulse> {
  const bin = requireBinaries('pulseaudio', 'pactl', 'paplay');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'engines-pulse-'));
  const socket = path.join(dir, 'native');
  const env = {
    HOME: dir,
    XDG_RUNTIME_DIR: dir,
    PULSE_RUNTIME_PATH: dir,
    PULSE_STATE_PATH: dir,
    PULSE_SERVER: `unix:${socket}`,
  };
  let server: TestProcess | undefined;
  try {
    server = await startProcess(
      'pulseaudio',
      bin.pulseaudio,
      [
        '-n',
        '--daemonize=no',
        '--exit-idle-time=-1',
        '--use-pid-file=no',
        '-L',
        `module-native-protocol-unix socket=${socket} auth-anonymous=1`,
        '-L',
        'module-null-sink sink_name=speakers',
        '-L',
        `module-null-sink sink_name=${MIC_FEED}`,
        '-L',
        `module-remap-source master=${MIC_FEED}.monitor source_name=mic`,
      ],
      env,
    );
    await waitForServer(bin.pactl, env, server);
    await run(bin.pactl, ['set-default-sink', 'speakers'], { env: { ...process.env, ...env } });
    await run(bin.pactl, ['set-default-source', 'mic'], { env: { ...process.env, ...env } });
  } catch (err) {
    await server?.stop(2_000);
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  const pulse = server;
  const players = new Set<() => Promise<void>>();
  return {
    env: { PULSE_SERVER: env.PULSE_SERVER },
    loopMicrophone: async (wav) => {
      let stopped = false;
      let current: TestProcess | undefined;
      const playOnce = async () => {
        while (!stopped) {
          current = await startProcess('paplay', bin.paplay, [`--device=${MIC_FEED}`, wav], env);
          const exit = await current.exited;
          if (!stopped && exit.code !== 0)
            throw new Error(`paplay ${wav} failed (${exit.code}):\n${current.lines.join('\n')}`);
        }
      };
      const loop = playOnce();
      // A failed paplay surfaces when the loop is stopped (the journey's `finally`), with its output.
      loop.catch(() => undefined);
      const stop = async () => {
        stopped = true;
        await current?.stop(2_000);
        await loop;
        players.delete(stop);
      };
      players.add(stop);
      return stop;
    },
    stop: async () => {
      for (const stop of [...players]) await stop();
      await pulse.stop(5_000);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The server answers once its socket is up: asked with `pactl info` until it does (or it died). */
async function waitForServer(pactl: string, env: Record<string, string>, server: TestProcess) {
  const deadline = Date.now() + 15_000;
  let ended = false;
  server.exited.then(() => {
    ended = true;
  });
  for (;;) {
    try {
      await run(pactl, ['info'], { env: { ...process.env, ...env }, timeout: 2_000 });
      return;
    } catch (err) {
      if (ended) throw new Error(`pulseaudio ended at start:\n${server.lines.join('\n')}`);
      if (Date.now() > deadline) throw new Error(`pulseaudio did not answer in 15 s: ${err}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
