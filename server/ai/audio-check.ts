/**
 * Checks an uploaded take before any work is queued: reads only the RIFF header, so a flood of bad
 * uploads is refused on the event loop in microseconds and never reaches the worker pool.
 * Messages are Chinese first with the English in brackets (the house style of both services), and
 * `data.reason` names the problem for programs.
 */
import { ACCEPTED_SAMPLE_RATES, MAX_TAKE_SECONDS } from '../../src/audio/constants';
import { Code } from '../../src/api/contract';
import { AppError } from '../lib/app-error';

export const MIN_TAKE_SECONDS = 0.2;

export type AudioProblem =
  | 'not_wav'
  | 'unsupported_encoding'
  | 'unsupported_channels'
  | 'unsupported_rate'
  | 'empty'
  | 'too_short'
  | 'too_long';

export interface WavInfo {
  sampleRate: number;
  channels: number;
  format: 'pcm16' | 'float32';
  frames: number;
  durationSeconds: number;
}

function refuse(reason: AudioProblem, msg: string, detail: Record<string, unknown> = {}): AppError {
  const code =
    reason === 'not_wav' || reason.startsWith('unsupported') ? Code.UNSUPPORTED_MEDIA : Code.BAD_REQUEST;
  return new AppError(code, msg, code, { field: 'file', reason, ...detail });
}

function ascii(b: Uint8Array, o: number): string {
  return String.fromCharCode(b[o], b[o + 1], b[o + 2], b[o + 3]);
}

/** Validates the header of a take; throws an AppError a person can act on. */
export function checkTakeWav(bytes: Uint8Array): WavInfo {
  if (bytes.length === 0) throw refuse('empty', '录音文件是空的，请重新录音 (the recording is empty)');
  if (bytes.length < 12 || ascii(bytes, 0) !== 'RIFF' || ascii(bytes, 8) !== 'WAVE') {
    throw refuse(
      'not_wav',
      '文件不是 WAV 格式（缺少 RIFF/WAVE 标记），请上传 WAV 录音 (not a RIFF/WAVE file)',
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 12;
  let fmt: { tag: number; channels: number; rate: number; bits: number; blockAlign: number } | null = null;
  while (offset + 8 <= bytes.length) {
    const id = ascii(bytes, offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > bytes.length) {
        throw refuse('not_wav', 'WAV 文件头不完整 (the wav fmt chunk is truncated)');
      }
      let tag = view.getUint16(body, true);
      if (tag === 0xfffe && size >= 40 && body + 26 <= bytes.length) tag = view.getUint16(body + 24, true);
      fmt = {
        tag,
        channels: view.getUint16(body + 2, true),
        rate: view.getUint32(body + 4, true),
        blockAlign: view.getUint16(body + 12, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      if (!fmt) throw refuse('not_wav', 'WAV 文件缺少格式信息 (data chunk before fmt chunk)');
      return describe(
        fmt,
        Math.min(size === 0xffffffff ? Number.MAX_SAFE_INTEGER : size, bytes.length - body),
      );
    }
    offset = body + size + (size & 1);
  }
  throw refuse(
    'not_wav',
    fmt ? 'WAV 文件没有音频数据 (no data chunk)' : 'WAV 文件缺少格式信息 (no fmt chunk)',
  );
}

function describe(
  fmt: { tag: number; channels: number; rate: number; bits: number; blockAlign: number },
  dataBytes: number,
): WavInfo {
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
  if (fmt.channels < 1 || fmt.channels > 2) {
    throw refuse(
      'unsupported_channels',
      `声道数不支持（${fmt.channels} 声道），请上传单声道或立体声 (only mono or stereo, got ${fmt.channels} channels)`,
      { channels: fmt.channels },
    );
  }
  if (!(ACCEPTED_SAMPLE_RATES as readonly number[]).includes(fmt.rate)) {
    throw refuse(
      'unsupported_rate',
      `采样率 ${fmt.rate} Hz 不支持，支持 ${ACCEPTED_SAMPLE_RATES.join('/')} Hz (unsupported sample rate ${fmt.rate} Hz)`,
      { sampleRate: fmt.rate, accepted: ACCEPTED_SAMPLE_RATES },
    );
  }
  const blockAlign = fmt.blockAlign || (fmt.bits / 8) * fmt.channels;
  const frames = Math.floor(dataBytes / blockAlign);
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
  };
}

/**
 * Largest upload accepted: 60 s of 48 kHz stereo 16-bit PCM plus slack for headers and the form.
 * (32-bit float fits at up to 48 kHz mono or 24 kHz stereo; the browser client always sends 16 kHz mono.)
 */
export const MAX_TAKE_BYTES = MAX_TAKE_SECONDS * 48_000 * 2 * 2 + 64 * 1024;
