/**
 * Checks an uploaded take before any work is queued: reads only the RIFF header, so a flood of bad
 * uploads is refused on the event loop in microseconds and never reaches the worker pool.
 * Messages are Chinese first with the English in brackets (the house style of both services), and
 * `data.reason` names the problem for programs.
 */
import { ACCEPTED_SAMPLE_RATES, MAX_TAKE_SECONDS } from '../../src/audio/constants';
import { Code } from '../../src/api/contract';
import { readWavHeader, type WavHeader, WavFormatError } from '../../src/audio/dsp/wav';
import { AppError } from '../lib/app-error';

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

function refuse(reason: AudioProblem, msg: string, detail: Record<string, unknown> = {}): AppError {
  const code =
    reason === 'not_wav' || reason.startsWith('unsupported') ? Code.UNSUPPORTED_MEDIA : Code.BAD_REQUEST;
  return new AppError(code, msg, code, { field: 'file', reason, ...detail });
}

/** The take check's answer to each structural problem the shared header reader finds. */
function headerProblem(err: WavFormatError): AppError {
  switch (err.problem) {
    case 'not_riff':
      return refuse(
        'not_wav',
        '文件不是 WAV 格式（缺少 RIFF/WAVE 标记），请上传 WAV 录音 (not a RIFF/WAVE file)',
      );
    case 'truncated_fmt':
      return refuse('not_wav', 'WAV 文件头不完整 (the wav fmt chunk is truncated)');
    case 'data_before_fmt':
      return refuse('not_wav', 'WAV 文件缺少格式信息 (data chunk before fmt chunk)');
    case 'no_fmt':
      return refuse('not_wav', 'WAV 文件缺少格式信息 (no fmt chunk)');
    case 'no_data':
      return refuse('not_wav', 'WAV 文件没有音频数据 (no data chunk)');
    case 'zero_channels':
      return channelsProblem(0);
    case 'zero_rate':
      return rateProblem(0);
    case 'encoding':
      return refuse('unsupported_encoding', `音频编码不支持 (unsupported encoding: ${err.message})`);
    case 'bad_block_align':
      return refuse(
        'bad_header',
        `WAV 文件头有误：每帧字节数 (blockAlign) 小于声道数 × 每个采样的字节数，无法读取，请重新导出录音 (inconsistent wav header: ${err.message.replace(/^Not a readable wav file: |\.$/g, '')})`,
        { problem: err.problem },
      );
  }
}

/** Validates the header of a take; throws an AppError a person can act on. */
export function checkTakeWav(bytes: Uint8Array): WavInfo {
  if (bytes.length === 0) throw refuse('empty', '录音文件是空的，请重新录音 (the recording is empty)');
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
  return refuse(
    'unsupported_channels',
    `声道数不支持（${channels} 声道），请上传单声道或立体声 (only mono or stereo, got ${channels} channels)`,
    { channels },
  );
}

function rateProblem(rate: number): AppError {
  return refuse(
    'unsupported_rate',
    `采样率 ${rate} Hz 不支持，支持 ${ACCEPTED_SAMPLE_RATES.join('/')} Hz (unsupported sample rate ${rate} Hz)`,
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
    const got =
      fmt.tag === 1 ? `${fmt.bits} 位 PCM` : fmt.tag === 3 ? `${fmt.bits} 位浮点` : `压缩编码 ${fmt.tag}`;
    const gotEn =
      fmt.tag === 1
        ? `${fmt.bits}-bit PCM`
        : fmt.tag === 3
          ? `${fmt.bits}-bit float`
          : `compressed format ${fmt.tag}`;
    throw refuse(
      'unsupported_encoding',
      `音频编码不支持（收到 ${got}），请上传 16 位 PCM 或 32 位浮点 WAV (unsupported encoding ${gotEn}; send 16-bit PCM or 32-bit float)`,
      { tag: fmt.tag, bits: fmt.bits },
    );
  }
  if (fmt.channels < 1 || fmt.channels > 2) throw channelsProblem(fmt.channels);
  if (!(ACCEPTED_SAMPLE_RATES as readonly number[]).includes(fmt.rate)) throw rateProblem(fmt.rate);
  const frames = header.frames;
  const durationSeconds = frames / fmt.rate;
  if (frames === 0)
    throw refuse('empty', '录音是空的（没有音频数据），请重新录音 (the recording has no samples)');
  if (durationSeconds < MIN_TAKE_SECONDS) {
    throw refuse(
      'too_short',
      `录音太短（${durationSeconds.toFixed(2)} 秒），至少需要 ${MIN_TAKE_SECONDS} 秒 (too short: ${durationSeconds.toFixed(2)} s, at least ${MIN_TAKE_SECONDS} s)`,
      { durationSeconds },
    );
  }
  if (durationSeconds > MAX_TAKE_SECONDS) {
    throw refuse(
      'too_long',
      `录音太长（${durationSeconds.toFixed(1)} 秒），最长 ${MAX_TAKE_SECONDS} 秒 (too long: ${durationSeconds.toFixed(1)} s, at most ${MAX_TAKE_SECONDS} s)`,
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
  return refuse(
    'non_finite_samples',
    `录音含有 ${count} 个无效采样值（NaN 或无穷大），无法评分，请重新录音 (the recording has ${count} non-finite samples, NaN or Inf: record again)`,
    { count },
  );
}
