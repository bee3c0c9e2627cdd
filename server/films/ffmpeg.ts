import { execFile } from 'node:child_process';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';

/** The ffmpeg binary shipped inside the npm package (nothing is downloaded at run time). */
export const FFMPEG_PATH: string = ffmpegInstaller.path;

function run(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(FFMPEG_PATH, args, { maxBuffer: 16 * 1024 * 1024 }, (err, _stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stderr: String(stderr) });
    });
  });
}

export interface ProbeResult {
  durationMs: number;
  hasAudio: boolean;
  hasVideo: boolean;
  /** The first video stream's codec name (h264, mpeg4, …), null without video. */
  videoCodec: string | null;
}

/** Reads duration and stream kinds from ffmpeg's banner (the package ships no ffprobe). */
export async function probeMedia(file: string): Promise<ProbeResult> {
  const { stderr } = await run(['-hide_banner', '-i', file]);
  const m = /Duration:\s*(\d+):(\d{2}):(\d{2})\.(\d+)/.exec(stderr);
  if (!m) throw new Error(`ffmpeg cannot read ${file}: ${lastLine(stderr)}`);
  const frac = Number(`0.${m[4]}`);
  const durationMs = Math.round(((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3]) + frac) * 1000);
  const codec = /Stream #.*Video:\s*([A-Za-z0-9_]+)/.exec(stderr);
  return {
    durationMs,
    hasAudio: /Stream #.*Audio:/.test(stderr),
    hasVideo: codec !== null,
    videoCodec: codec ? codec[1] : null,
  };
}

/** Cuts [startMs, endMs) of the input's audio as 16 kHz mono 16-bit PCM wav (the analysis format). */
export async function cutWav(input: string, startMs: number, endMs: number, output: string): Promise<void> {
  const { code, stderr } = await run([
    '-v',
    'error',
    '-ss',
    (startMs / 1000).toFixed(3),
    '-t',
    ((endMs - startMs) / 1000).toFixed(3),
    '-i',
    input,
    '-vn',
    '-ac',
    '1',
    '-ar',
    '16000',
    '-c:a',
    'pcm_s16le',
    '-y',
    output,
  ]);
  if (code !== 0) throw new Error(`ffmpeg could not cut audio ${startMs}–${endMs} ms: ${lastLine(stderr)}`);
}

/** Runs ffmpeg with arbitrary arguments (tests synthesise fixture videos with it). */
export async function ffmpeg(args: string[]): Promise<void> {
  const { code, stderr } = await run(['-v', 'error', ...args]);
  if (code !== 0) throw new Error(`ffmpeg failed: ${lastLine(stderr)}`);
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop() ?? '';
}
