/**
 * Checks an uploaded take before any work is queued: reads only the RIFF header, so a flood of bad
 * uploads is refused on the event loop in microseconds and never reaches the worker pool.
 * Each refusal says a row of the catalogue (src/i18n/server-messages.ts, worded in the request's
 * language), and `data.reason` names the problem for programs.
 */
import { ACCEPTED_SAMPLE_RATES, MAX_TAKE_SECONDS } from '../../src/audio/constants';
import { Code } from '../../src/api/contract';
import { readWavHeader, type WavHeader, WavFormatError } from '../../src/audio/dsp/wav';
import { type AppError, catalogueError } from '../lib/app-error';
import type { Said } from '../lib/words';
import type { ServerMessageId } from '../../src/i18n/server-messages';

export const MIN_TAKE_SECONDS = 0.2;

export type AudioProblem =
  | 'not_wav'
  | 'unsupported_encoding'
  | 'unsupported_channels'
  | 'unsupported_rate'
  | 'bad_header'
  | 'empty'
  | 'too_short'
  | 'too_long'
  | 'non_finite_samples';

export interface WavInfo {
  sampleRate: number;
  channels: number;
  format: 'pcm16' | 'float32';
  frames: number;
  durationSeconds: number;
  /** Byte offset of the first sample. */
  dataOffset: number;
  /** Bytes per frame (may exceed channels × bytes per sample). */
  blockAlign: number;
}

function refuse(
  reason: AudioProblem,
  id: ServerMessageId,
  values?: Said['values'],
  detail: Record<string, unknown> = {},
): AppError {
  const code =
    reason === 'not_wav' || reason.startsWith('unsupported') ? Code.UNSUPPORTED_MEDIA : Code.BAD_REQUEST;
  return catalogueError(code, id, { values, data: { field: 'file', reason, ...detail }, status: code });
}

/** The take check's answer to each structural problem the shared header reader finds. */
function headerProblem(err: WavFormatError): AppError {
  switch (err.problem) {
    case 'not_riff':
      return refuse('not_wav', 'upload.notWav');
    case 'truncated_fmt':
      return refuse('not_wav', 'upload.truncatedHeader');
    case 'data_before_fmt':
    case 'no_fmt':
      return refuse('not_wav', 'upload.noFormat');
    case 'no_data':
      return refuse('not_wav', 'upload.noAudio');
    case 'zero_channels':
      return channelsProblem(0);
    case 'zero_rate':
      return rateProblem(0);
    case 'encoding':
      return refuse('unsupported_encoding', 'upload.encoding', { detail: err.message });
    case 'bad_block_align':
      return refuse(
        'bad_header',
        'upload.badBlockAlign',
        { detail: err.message.replace(/^Not a readable wav file: |\.$/g, '') },
        { problem: err.problem },
      );
  }
}

/** Validates the header of a take; throws an AppError a person can act on. */
export function checkTakeWav(bytes: Uint8Array): WavInfo {
  if (bytes.length === 0) throw refuse('empty', 'upload.empty');
  let header: WavHeader;
  try {
    header = readWavHeader(bytes);
  } catch (err) {
    if (err instanceof WavFormatError) throw headerProblem(err);
    throw err;
  }
  return { ...describe(header), dataOffset: header.dataOffset };
}

function channelsProblem(channels: number): AppError {
  return refuse('unsupported_channels', 'upload.channels', { channels: String(channels) }, { channels });
}

function rateProblem(rate: number): AppError {
  return refuse(
    'unsupported_rate',
    'upload.rate',
    { rate: String(rate), accepted: ACCEPTED_SAMPLE_RATES.join('/') },
    { sampleRate: rate, accepted: ACCEPTED_SAMPLE_RATES },
  );
}

function describe(header: WavHeader): Omit<WavInfo, 'dataOffset'> {
  const fmt = {
    tag: header.tag,
    bits: header.bitsPerSample,
    channels: header.channels,
    rate: header.sampleRate,
  };
  const pcm16 = fmt.tag === 1 && fmt.bits === 16;
  const float32 = fmt.tag === 3 && fmt.bits === 32;
  if (!pcm16 && !float32) {
    const kind = fmt.tag === 1 ? 'pcm' : fmt.tag === 3 ? 'float' : 'other';
    throw refuse(
      'unsupported_encoding',
      'upload.encodingGot',
      { kind, bits: String(fmt.bits), tag: String(fmt.tag) },
      { tag: fmt.tag, bits: fmt.bits },
    );
  }
  if (fmt.channels < 1 || fmt.channels > 2) throw channelsProblem(fmt.channels);
  if (!(ACCEPTED_SAMPLE_RATES as readonly number[]).includes(fmt.rate)) throw rateProblem(fmt.rate);
  const frames = header.frames;
  const durationSeconds = frames / fmt.rate;
  if (frames === 0) throw refuse('empty', 'upload.noSamples');
  if (durationSeconds < MIN_TAKE_SECONDS) {
    throw refuse(
      'too_short',
      'upload.tooShort',
      { seconds: durationSeconds.toFixed(2), min: String(MIN_TAKE_SECONDS) },
      { durationSeconds },
    );
  }
  if (durationSeconds > MAX_TAKE_SECONDS) {
    throw refuse(
      'too_long',
      'upload.tooLong',
      { seconds: durationSeconds.toFixed(1), max: String(MAX_TAKE_SECONDS) },
      { durationSeconds },
    );
  }
  return {
    sampleRate: fmt.rate,
    channels: fmt.channels,
    format: pcm16 ? 'pcm16' : 'float32',
    frames,
    durationSeconds,
    blockAlign: header.blockAlign,
  };
}

/**
 * Largest upload accepted: 60 s of 48 kHz stereo 16-bit PCM plus slack for headers and the form.
 * (32-bit float fits at up to 48 kHz mono or 24 kHz stereo; the browser client always sends 16 kHz mono.)
 */
export const MAX_TAKE_BYTES = MAX_TAKE_SECONDS * 48_000 * 2 * 2 + 64 * 1024;

/**
 * Refuses a 32-bit float take with a NaN or infinite sample (one would turn every measure into NaN
 * and the score into 0 with "no speech"). Runs on the event loop before any work is queued, in both
 * scoring modes; a linear scan, about a millisecond per million samples. PCM cannot hold such values.
 */
export function checkFiniteSamples(bytes: Uint8Array, info: WavInfo): void {
  if (info.format !== 'float32') return;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let count = 0;
  for (let i = 0; i < info.frames; i++) {
    const frame = info.dataOffset + i * info.blockAlign;
    for (let c = 0; c < info.channels; c++)
      if (!Number.isFinite(view.getFloat32(frame + c * 4, true))) count += 1;
  }
  if (count > 0) throw nonFiniteSamples(count);
}

/** A float take with NaN or infinite samples: refused before scoring, never scored 0. */
export function nonFiniteSamples(count: number): AppError {
  return refuse('non_finite_samples', 'upload.nonFinite', { count: String(count) }, { count });
}
