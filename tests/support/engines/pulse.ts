import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, startProcess, type TestProcess } from '../processes';
import { requireBinaries } from './binaries';

const run = promisify(execFile);

/** The null sink a wav is played into; its monitor, remapped, is the browsers' default microphone. */
const MIC_FEED = 'mic_feed';

/**
 * Stops the loop and hands over what the microphone carried meanwhile, as a PulseAudio client reading
 * it with a 20 ms latency heard it: 16 kHz mono, and when its first sample was at the microphone (epoch
 * ms, the page's clock too: performance.timeOrigin + now), taken from the chunk that arrived with the
 * least delay. A take's audio is found in it by correlation (tests/engines/journeys.ts).
 */
export type MicLoop = () => Promise<HeardMicrophone>;

export interface HeardMicrophone {
  samples: Float32Array;
  firstSampleAt: number;
  /** How much later than the least-delayed chunk the latest one arrived (ms): the reading's jitter. */
  jitterMs: number;
}

export const HEARD_RATE = 16000;

export interface Pulse {
  /** For a browser's environment: `PULSE_SERVER=unix:…` reaches this server and no other. */
  env: Record<string, string>;
  /**
   * Plays `wav` into the microphone over and over until the returned stop is called (a take may
   * start anywhere in the file, as with Chromium's looping fake device).
   */
  loopMicrophone: (wav: string) => Promise<MicLoop>;
  stop: () => Promise<void>;
}

/**
 * A private PulseAudio server (its own runtime folder and socket, no D-Bus, no user config) with two
 * null sinks: `speakers`, the default output, so an AudioContext has a device to run on (without one
 * Firefox keeps it suspended), and `mic_feed`, whose monitor is remapped as `mic`, the default input.
 */
export async function startPulse(): Promise<Pulse> {
  const bin = requireBinaries('pulseaudio', 'pactl', 'paplay', 'parec');
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
  const players = new Set<() => Promise<unknown>>();
  return {
    env: { PULSE_SERVER: env.PULSE_SERVER },
    loopMicrophone: async (wav) => {
      let stopped = false;
      let current: TestProcess | undefined;
      const heard = listen(bin.parec, env);
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
        return heard.stop();
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

/**
 * Records the default source (the microphone) with parec at a 20 ms latency, each chunk's arrival
 * noted, until `stop`. Run through tests/support/lifeline.mjs like every test process, whose first
 * line on standard output (`LIFELINE <pid>`) comes before parec's raw samples.
 */
function listen(parec: string, env: Record<string, string>): { stop: () => Promise<HeardMicrophone> } {
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'tests/support/lifeline.mjs'),
      parec,
      '--latency-msec=20',
      '--format=s16le',
      `--rate=${HEARD_RATE}`,
      '--channels=1',
      '--raw',
    ],
    { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const chunks: Buffer[] = [];
  let header = true;
  let bytes = 0;
  /** Wall time of sample 0 as each chunk's arrival implies it (ms). */
  const starts: number[] = [];
  child.stdout.on('data', (data: Buffer) => {
    const at = performance.timeOrigin + performance.now();
    let b = data;
    if (header) {
      const nl = b.indexOf(10);
      if (nl < 0) return;
      header = false;
      b = b.subarray(nl + 1);
    }
    if (b.length === 0) return;
    chunks.push(b);
    bytes += b.length;
    starts.push(at - (Math.floor(bytes / 2) / HEARD_RATE) * 1000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    stop: async () => {
      child.stdin.end();
      await exited;
      const all = Buffer.concat(chunks);
      const samples = new Float32Array(Math.floor(all.length / 2));
      for (let i = 0; i < samples.length; i++) samples[i] = all.readInt16LE(i * 2) / 32768;
      const first = Math.min(...starts);
      return { samples, firstSampleAt: first, jitterMs: Math.max(...starts) - first };
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
