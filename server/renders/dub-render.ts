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
  /** Take files, the clip time (ms) of each one's first sample (may be below 0) and its length (ms). */
  takes: { file: string; clipStartMs: number; durationMs: number }[];
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
/** A clip time (ms) as a sample index at the render's rate: every cut is on a whole sample. */
const sampleAt = (ms: number) => Math.round((ms * BACKGROUND_RATE) / 1000);

/** A piece of the audio bed: the samples [from, to) of a source, or silence. */
interface Piece {
  from: number;
  to: number;
  source: 'orig' | 'bg' | 'silence';
}

/**
 * The bed cut into pieces: `inside` plays within the merged spans, `outside` elsewhere. The pieces
 * tile [0, end) exactly, so their concatenation is the bed at every sample.
 */
function bedPieces(
  spans: readonly RenderSpan[],
  end: number,
  inside: Piece['source'],
  outside: Piece['source'],
): Piece[] {
  const pieces: Piece[] = [];
  let at = 0;
  for (const s of mergeSpans(spans)) {
    const from = Math.min(end, sampleAt(s.fromMs));
    const to = Math.min(end, sampleAt(s.toMs));
    if (from > at) pieces.push({ from: at, to: from, source: outside });
    if (to > Math.max(at, from)) pieces.push({ from: Math.max(at, from), to, source: inside });
    at = Math.max(at, to);
  }
  if (end > at) pieces.push({ from: at, to: end, source: outside });
  return pieces;
}

/**
 * Takes spread over as few lanes as hold them without overlap (most clips need one or two: only
 * neighbouring windows' margins touch). Each take plays from its start to the next take of its lane,
 * padded with silence, so a lane is one run of samples from its first take to the clip's end.
 */
function takeLanes(takes: DubRenderInput['takes'], end: number) {
  const placed = takes
    .map((t, input) => {
      const start = sampleAt(t.clipStartMs);
      return { input, start, stop: start + sampleAt(t.durationMs) };
    })
    .filter((t) => t.stop > 0 && t.start < end)
    .sort((a, b) => a.start - b.start);
  const lanes: (typeof placed)[] = [];
  for (const t of placed) {
    const lane = lanes.find((l) => l[l.length - 1].stop <= t.start);
    if (lane) lane.push(t);
    else lanes.push([t]);
  }
  return lanes;
}

/**
 * ffmpeg's arguments for a render (exported for the test of the graph and bench/render.ts). Every
 * sample of the output is made once: the bed is the concatenation of cut pieces of the original audio
 * and the background (or silence), each lane of takes the concatenation of its leading silence and
 * its takes, and one amix sums the bed and the few lanes. Nothing is evaluated per sample and no take
 * is padded to the clip's length, so the cost grows with the clip's length alone (docs/performance.md,
 * "The dubbed-video render").
 */
/**
 * The audio every render writes (and bench/render.ts's floors, so they are the same job): one thread,
 * since renders share the machine with the request handlers and the scoring pool; mono AAC.
 */
export const AAC_OUT = [
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
];

export function dubRenderArgs(input: DubRenderInput, copyVideo: boolean): string[] {
  const end = sampleAt(input.durationMs);
  const mono = `aresample=${BACKGROUND_RATE},aformat=sample_fmts=fltp:channel_layouts=mono`;
  const args = ['-hide_banner', '-nostdin', '-v', 'error', '-y', '-i', input.video];
  const chains: string[] = [];
  const silence = (n: number, label: string) =>
    chains.push(
      `anullsrc=r=${BACKGROUND_RATE}:cl=mono,aformat=sample_fmts=fltp,atrim=end_sample=${n}${label}`,
    );

  const pieces = input.background
    ? bedPieces(input.actor, end, 'orig', 'bg')
    : bedPieces(input.dubbed, end, 'silence', 'orig');
  const sources = { orig: '0:a', bg: '1:a' } as const;
  if (input.background) args.push('-i', input.background);
  const bed: string[] = [];
  for (const source of ['orig', 'bg'] as const) {
    const mine = pieces.filter((p) => p.source === source);
    if (mine.length === 0) continue;
    const branches = mine.map((_, k) => `[${source}${k}]`);
    // One-second frames: each piece's cut sees every frame of its source, so fewer frames, less work.
    chains.push(
      `[${sources[source]}]${mono},asetnsamples=n=${BACKGROUND_RATE}:p=0${mine.length > 1 ? `,asplit=${mine.length}${branches.join('')}` : branches[0]}`,
    );
  }
  const used = { orig: 0, bg: 0 };
  pieces.forEach((p, k) => {
    const label = `[p${k}]`;
    if (p.source === 'silence') silence(p.to - p.from, label);
    else {
      const branch = `[${p.source}${used[p.source]++}]`;
      // A cut of a stream that ended early is short: the bed's apad below keeps the clip's length.
      chains.push(`${branch}atrim=start_sample=${p.from}:end_sample=${p.to},asetpts=PTS-STARTPTS${label}`);
    }
    bed.push(label);
  });
  chains.push(
    bed.length > 1
      ? `${bed.join('')}concat=n=${bed.length}:v=0:a=1,apad,atrim=end_sample=${end}[bed]`
      : `${bed[0]}apad,atrim=end_sample=${end}[bed]`,
  );

  const first = input.background ? 2 : 1;
  for (const take of input.takes) args.push('-i', take.file);
  const mix = ['[bed]'];
  takeLanes(input.takes, end).forEach((lane, l) => {
    const parts: string[] = [];
    const lead = Math.max(0, lane[0].start);
    if (lead > 0) {
      silence(lead, `[lead${l}]`);
      parts.push(`[lead${l}]`);
    }
    lane.forEach((t, k) => {
      const from = Math.max(0, t.start);
      const to = k + 1 < lane.length ? lane[k + 1].start : end;
      // A take that starts before the clip (a line near 0 s) loses its first samples instead.
      const skip = t.start < 0 ? `atrim=start_sample=${-t.start},asetpts=PTS-STARTPTS,` : '';
      chains.push(`[${first + t.input}:a]${mono},${skip}apad,atrim=end_sample=${to - from}[l${l}t${k}]`);
      parts.push(`[l${l}t${k}]`);
    });
    chains.push(
      parts.length > 1
        ? `${parts.join('')}concat=n=${parts.length}:v=0:a=1[lane${l}]`
        : `${parts[0]}anull[lane${l}]`,
    );
    mix.push(`[lane${l}]`);
  });
  // amix divides every input by their number (all end together at the clip's end): volume undoes it.
  chains.push(
    mix.length > 1
      ? `${mix.join('')}amix=inputs=${mix.length}:duration=longest,volume=${mix.length}[a]`
      : '[bed]anull[a]',
  );
  args.push('-filter_complex', chains.join(';'), '-map', '0:v:0', '-map', '[a]');
  if (copyVideo) args.push('-c:v', 'copy');
  else args.push('-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p');
  args.push(...AAC_OUT, '-t', sec(input.durationMs), '-movflags', '+faststart', '-f', 'mp4', input.out);
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
