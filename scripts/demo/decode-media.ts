/** Full decodes with the shipped ffmpeg, for checks: any decode error throws (-xerror). */
import { runFfmpeg } from './ffmpeg';

/** The whole audio track as mono float PCM at `rate`. */
export function decodeAudio(file: string, rate: number): Float32Array {
  const out = runFfmpeg([
    '-xerror',
    '-i',
    file,
    '-vn',
    '-ac',
    '1',
    '-ar',
    String(rate),
    '-f',
    'f32le',
    'pipe:1',
  ]);
  // Copy: a Buffer's offset into its ArrayBuffer need not be 4-byte aligned.
  return new Float32Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength));
}

/** Decodes every video frame (scaled to 16×9 grey so the pipe stays small) and counts them. */
export function decodeVideoFrames(file: string): number {
  const out = runFfmpeg([
    '-xerror',
    '-i',
    file,
    '-an',
    '-vf',
    'scale=16:9',
    '-pix_fmt',
    'gray',
    '-f',
    'rawvideo',
    'pipe:1',
  ]);
  return out.byteLength / (16 * 9);
}
