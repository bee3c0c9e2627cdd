/** Runs the ffmpeg binary shipped by @ffmpeg-installer/ffmpeg (no system ffmpeg needed). */
import { spawnSync } from 'node:child_process';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';

export const FFMPEG_PATH: string = ffmpegInstaller.path;

/** Flags that keep encoder/muxer version strings and dates out of the output, so builds repeat. */
export const BITEXACT = [
  '-fflags',
  '+bitexact',
  '-flags:v',
  '+bitexact',
  '-flags:a',
  '+bitexact',
  '-map_metadata',
  '-1',
];

export function runFfmpeg(args: string[], input?: Uint8Array): Buffer {
  const result = spawnSync(FFMPEG_PATH, ['-hide_banner', '-nostdin', '-loglevel', 'error', ...args], {
    input,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error) throw new Error(`could not start ffmpeg at ${FFMPEG_PATH}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`ffmpeg exited with ${result.status}: ${result.stderr.toString().trim().slice(-2000)}`);
  }
  return result.stdout;
}

/** Resamples mono 16-bit PCM wav bytes to another rate with ffmpeg's resampler. */
export function resampleWav(wav: Uint8Array, sampleRate: number): Buffer {
  return runFfmpeg(
    [
      '-f',
      'wav',
      '-i',
      'pipe:0',
      '-ar',
      String(sampleRate),
      '-ac',
      '1',
      '-c:a',
      'pcm_s16le',
      ...BITEXACT,
      '-f',
      'wav',
      'pipe:1',
    ],
    wav,
  );
}
