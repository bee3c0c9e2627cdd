/**
 * A low-bitrate codec round trip for the transfer bench: the take encoded to Opus at `kbps` and
 * decoded back by the project's ffmpeg (@ffmpeg-installer/ffmpeg has libopus). The ffmpeg runner is
 * passed in so this module stays free of Node APIs (the unit tests run it under happy-dom's typings).
 */
import { decodeWav, encodeWav16, toMono } from '../../../src/audio/dsp/wav';

/** Runs ffmpeg with `args`, `input` on stdin; returns stdout. */
export type FfmpegRunner = (args: string[], input: Uint8Array) => Uint8Array;

/** Opus encoder rates; the take is handed over at the nearest one at or above its own. */
const OPUS_RATES = [8_000, 12_000, 16_000, 24_000, 48_000];

export function opusRoundTrip(
  x: Float32Array,
  sampleRate: number,
  kbps: number,
  run: FfmpegRunner,
): Float32Array {
  const opusRate = OPUS_RATES.find((r) => r >= sampleRate) ?? 48_000;
  const wav = new Uint8Array(encodeWav16(x, sampleRate));
  const quiet = ['-hide_banner', '-nostdin', '-loglevel', 'error'];
  const ogg = run(
    [
      ...quiet,
      '-f',
      'wav',
      '-i',
      'pipe:0',
      '-ar',
      String(opusRate),
      '-ac',
      '1',
      '-c:a',
      'libopus',
      '-b:a',
      `${kbps}k`,
      '-application',
      'voip',
      '-f',
      'ogg',
      'pipe:1',
    ],
    wav,
  );
  const back = run(
    [
      ...quiet,
      '-f',
      'ogg',
      '-i',
      'pipe:0',
      '-ar',
      String(sampleRate),
      '-ac',
      '1',
      '-c:a',
      'pcm_s16le',
      '-f',
      'wav',
      'pipe:1',
    ],
    ogg,
  );
  const y = toMono(decodeWav(back));
  // The decoded stream lags by a few milliseconds (resampler and codec delay beyond the pre-skip
  // ffmpeg removes): realign on the best cross-correlation within ±20 ms, then cut or pad to length.
  const lag = bestLag(x, y, Math.round(0.02 * sampleRate));
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const j = i + lag;
    out[i] = j >= 0 && j < y.length ? y[j] : 0;
  }
  return out;
}

/** The shift of y against x (y[i + lag] ≈ x[i]) with the largest correlation, |lag| ≤ maxLag. */
function bestLag(x: Float32Array, y: Float32Array, maxLag: number): number {
  let best = 0;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (let lag = -maxLag; lag <= maxLag; lag++) {
    let s = 0;
    const from = Math.max(0, -lag);
    const to = Math.min(x.length, y.length - lag);
    for (let i = from; i < to; i += 2) s += x[i] * y[i + lag];
    if (s > bestScore) {
      bestScore = s;
      best = lag;
    }
  }
  return best;
}
