/**
 * Renders a run's dubbed clip with ffmpeg (docs/architecture.md, "The dubbed video"): the film's
 * picture (copied when it is H.264 already, else encoded), and one mono AAC track mixed sample by
 * sample — the background everywhere but the windows of lines the learner did not dub, the original
 * audio only there, and each take delayed to its window (the same clip clock as the recording
 * pipeline and the browser's "watch my dub": its first sample at the cue start less the take margin).
 * ffmpeg runs as a child process, so the render never blocks the request event loop.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { BACKGROUND_RATE } from '../films/background';
import { FFMPEG_PATH, probeMedia } from '../films/ffmpeg';

export interface RenderSpan {
  fromMs: number;
  toMs: number;
}

export interface DubRenderInput {
  video: string;
  /** The film's voice-free background (file), or null: the original, silenced where takes play. */
  background: string | null;
  durationMs: number;
  /** Windows (with the take margin) of the lines without a take: the actor keeps them. */
  actor: RenderSpan[];
  /** Windows of the lines with a take. */
  dubbed: RenderSpan[];
  /** Take wav files and the clip time (ms) of each one's first sample (may be below 0). */
  takes: { file: string; clipStartMs: number }[];
  out: string;
  /** Stops ffmpeg (shutdown). */
  signal?: AbortSignal;
}

/** Overlapping or touching spans merged, so a gate never counts a moment twice. */
export function mergeSpans(spans: readonly RenderSpan[]): RenderSpan[] {
  const out: RenderSpan[] = [];
  for (const s of [...spans].sort((a, b) => a.fromMs - b.fromMs)) {
    const last = out[out.length - 1];
    if (last && s.fromMs <= last.toMs) last.toMs = Math.max(last.toMs, s.toMs);
    else out.push({ ...s });
  }
  return out;
}

const sec = (ms: number) => (ms / 1000).toFixed(6);

/** An aeval gain expression: `inside` within the spans, `1 - inside` elsewhere (per sample). */
function gate(spans: readonly RenderSpan[], inside: 0 | 1): string {
  const merged = mergeSpans(spans);
  if (merged.length === 0) return inside ? '0' : '1';
  // Merged spans never overlap, so the sum of their between() terms is 0 or 1.
  const any = merged.map((s) => `between(t\\,${sec(s.fromMs)}\\,${sec(s.toMs)})`).join('+');
  return inside ? `(${any})` : `(1-(${any}))`;
}

/** ffmpeg's arguments for a render (exported for the test of the graph). */
export function dubRenderArgs(input: DubRenderInput, copyVideo: boolean): string[] {
  const end = sec(input.durationMs);
  const mono = `aresample=${BACKGROUND_RATE},aformat=sample_fmts=fltp:channel_layouts=mono`;
  const fit = `apad,atrim=end=${end}`;
  const args = ['-hide_banner', '-nostdin', '-v', 'error', '-y', '-i', input.video];
  const chains: string[] = [];
  const labels: string[] = [];
  if (input.background) {
    args.push('-i', input.background);
    chains.push(`[0:a]${mono},aeval=val(0)*${gate(input.actor, 1)}:c=same,${fit}[orig]`);
    chains.push(`[1:a]${mono},aeval=val(0)*${gate(input.actor, 0)}:c=same,${fit}[bg]`);
    labels.push('[orig]', '[bg]');
  } else {
    chains.push(`[0:a]${mono},aeval=val(0)*${gate(input.dubbed, 0)}:c=same,${fit}[orig]`);
    labels.push('[orig]');
  }
  const first = input.background ? 2 : 1;
  input.takes.forEach((take, k) => {
    args.push('-i', take.file);
    const place =
      take.clipStartMs >= 0
        ? `adelay=${take.clipStartMs.toFixed(3)}`
        : `atrim=start=${sec(-take.clipStartMs)},asetpts=PTS-STARTPTS`;
    chains.push(`[${first + k}:a]${mono},${place},${fit}[t${k}]`);
    labels.push(`[t${k}]`);
  });
  // amix divides every input by their number (all end together, after apad + atrim): volume undoes it.
  chains.push(
    labels.length > 1
      ? `${labels.join('')}amix=inputs=${labels.length}:duration=longest,volume=${labels.length}[a]`
      : `${labels[0]}anull[a]`,
  );
  args.push('-filter_complex', chains.join(';'), '-map', '0:v:0', '-map', '[a]');
  if (copyVideo) args.push('-c:v', 'copy');
  else args.push('-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p');
  args.push(
    // One thread: renders share the machine with the request handlers and the scoring pool.
    '-threads',
    '1',
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ar',
    String(BACKGROUND_RATE),
    '-ac',
    '1',
    '-t',
    end,
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    input.out,
  );
  return args;
}

/** Why a render failed, in words a person can act on (the last line ffmpeg wrote). */
export class RenderError extends Error {
  override name = 'RenderError';
}

/**
 * Renders to a temporary name beside `out` and renames it when ffmpeg has finished, so `out` is
 * either whole or absent. Settles only once the child has exited: an abort (shutdown) kills ffmpeg
 * and the promise rejects with the AbortError after the process is gone and its partial file deleted,
 * so nothing writes into the caller's folder after it has been told the render ended.
 */
export async function renderDubVideo(input: DubRenderInput): Promise<void> {
  input.signal?.throwIfAborted();
  const probe = await probeMedia(input.video).catch((e: Error) => {
    throw new RenderError(`the film's video cannot be read: ${e.message}`);
  });
  if (!probe.hasVideo) throw new RenderError("the film's video has no picture");
  const part = path.join(
    path.dirname(input.out),
    `.${path.basename(input.out)}.${crypto.randomBytes(6).toString('hex')}.part`,
  );
  const args = dubRenderArgs({ ...input, out: part }, probe.videoCodec === 'h264');
  try {
    await new Promise<void>((resolve, reject) => {
      // SIGKILL: a graceful SIGTERM would have ffmpeg finish writing a file that is deleted anyway.
      const child = spawn(FFMPEG_PATH, args, {
        stdio: ['ignore', 'ignore', 'pipe'],
        signal: input.signal,
        killSignal: 'SIGKILL',
      });
      let err = '';
      let failure: Error | null = null;
      child.stderr.on('data', (b: Buffer) => {
        err = (err + b.toString()).slice(-4000);
      });
      child.on('error', (e) => {
        failure = input.signal?.aborted ? e : new RenderError(`ffmpeg could not start: ${e.message}`);
        // A child that never started emits no 'close'; one that did (an abort) is awaited there.
        if (child.pid === undefined) reject(failure);
      });
      child.on('close', (code) => {
        if (failure) reject(failure);
        else if (code === 0) resolve();
        else
          reject(
            new RenderError(`ffmpeg exited with ${code}: ${err.trim().split('\n').pop() ?? 'no message'}`),
          );
      });
    });
    await fsp.rename(part, input.out);
  } finally {
    await fsp.rm(part, { force: true });
  }
}
