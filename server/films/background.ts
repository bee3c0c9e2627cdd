/**
 * A film's voice-free background track (music, effects, room tone), which "watch my dub" and the
 * dubbed-video render play under the learner's takes (docs/architecture.md, "Watch my dub").
 * A film folder may bring its own (`background.wav` or `background.m4a`); without one the importer
 * derives it from the original audio by ducking every subtitle window, widened by the take margin
 * the pipeline cuts with, so the actor's voice is gone wherever a take may be placed.
 */
import { spawn } from 'node:child_process';
import { DEFAULT_WINDOW_MARGIN_SECONDS } from '../../src/audio/constants';
import { FFMPEG_PATH } from './ffmpeg';

/** Rate of the stored background (and of the render's audio): the demo films' AAC rate. */
export const BACKGROUND_RATE = 44_100;
/** How far a derived background ducks the original inside each window (at least 24 dB keeps the actor out of a dub). */
export const DUCK_DB = 30;
/** Gain ramps sit outside the window, so the whole window is ducked by the full depth. */
export const DUCK_RAMP_MS = 20;
/** File names a film folder may hold its background under, in order of preference. */
export const BACKGROUND_FILES = ['background.m4a', 'background.wav'] as const;

export interface DuckWindow {
  startMs: number;
  endMs: number;
}

/**
 * Multiplies `samples` in place by a gain that is 10^(-depthDb/20) inside every window widened by
 * `marginMs`, 1 far from them, with raised-cosine ramps of `rampMs` just outside.
 */
export function duckWindows(
  samples: Float32Array,
  rate: number,
  windows: readonly DuckWindow[],
  options: { depthDb?: number; marginMs?: number; rampMs?: number } = {},
): void {
  const floor = 10 ** (-(options.depthDb ?? DUCK_DB) / 20);
  const margin = options.marginMs ?? DEFAULT_WINDOW_MARGIN_SECONDS * 1000;
  const ramp = Math.max(1, Math.round(((options.rampMs ?? DUCK_RAMP_MS) / 1000) * rate));
  const gain = new Float32Array(samples.length).fill(1);
  for (const w of windows) {
    const start = Math.max(0, Math.floor(((w.startMs - margin) / 1000) * rate));
    const end = Math.min(samples.length, Math.ceil(((w.endMs + margin) / 1000) * rate));
    for (let i = start; i < end; i++) gain[i] = floor;
    for (let k = 1; k <= ramp; k++) {
      // k samples outside the window: from the floor back up to 1.
      const g = floor + (1 - floor) * 0.5 * (1 - Math.cos((Math.PI * k) / (ramp + 1)));
      if (start - k >= 0) gain[start - k] = Math.min(gain[start - k], g);
      if (end - 1 + k < samples.length) gain[end - 1 + k] = Math.min(gain[end - 1 + k], g);
    }
  }
  for (let i = 0; i < samples.length; i++) samples[i] *= gain[i];
}

function runFfmpeg(args: string[], input?: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(FFMPEG_PATH, ['-hide_banner', '-nostdin', '-v', 'error', ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => {
      err = (err + b.toString()).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`ffmpeg exited with ${code}: ${err.trim().split('\n').pop() ?? ''}`));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/** The whole audio of a media file as mono float PCM at `rate`. */
export async function decodeMono(file: string, rate = BACKGROUND_RATE): Promise<Float32Array> {
  const out = await runFfmpeg(['-i', file, '-vn', '-ac', '1', '-ar', String(rate), '-f', 'f32le', 'pipe:1']);
  // Copy: a Buffer's offset into its ArrayBuffer need not be 4-byte aligned.
  return new Float32Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength));
}

/** Mono float PCM → AAC in an .m4a file (what browsers decode and the render mixes). */
export async function encodeM4a(samples: Float32Array, rate: number, output: string): Promise<void> {
  const input = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  await runFfmpeg(
    [
      '-f',
      'f32le',
      '-ar',
      String(rate),
      '-ac',
      '1',
      '-i',
      'pipe:0',
      '-c:a',
      'aac',
      '-b:a',
      '64k',
      '-movflags',
      '+faststart',
      '-y',
      output,
    ],
    input,
  );
}
