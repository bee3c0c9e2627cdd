/**
 * RIFF/WAVE codec. Pure (no DOM, no Node globals) so the worker, the tests, the bench and the server share it.
 * Encoding writes 16-bit PCM (what the AI service takes); decoding reads PCM 8/16/24/32 and float 32/64,
 * including WAVE_FORMAT_EXTENSIBLE and files with extra chunks (LIST, fact, …) before `data`.
 */

export interface DecodedWav {
  sampleRate: number;
  /** One Float32Array per channel, samples in [-1, 1). */
  channels: Float32Array[];
  bitsPerSample: number;
  format: 'pcm' | 'float';
}

export const WAV_HEADER_BYTES = 44;

/** Writes a canonical 44-byte PCM header for `frames` mono/multichannel 16-bit frames. */
export function writeWav16Header(view: DataView, frames: number, sampleRate: number, channels = 1): void {
  const blockAlign = channels * 2;
  const dataBytes = frames * blockAlign;
  writeAscii(view, 0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  writeAscii(view, 8, 'WAVE');
  writeAscii(view, 12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, 16, true);
  writeAscii(view, 36, 'data');
  view.setUint32(40, dataBytes, true);
}

/**
 * Float sample → int16, scaled by 32768 (the same factor decodeWav divides by, so every int16 value
 * round-trips exactly), rounded half up and clipped to [-32768, 32767].
 * floor(v + 0.5) rather than Math.round: the same result here (v is a float32 times a power of two,
 * so v + 0.5 is exact), at under half the cost in V8 (docs/performance.md).
 */
export function floatToInt16(sample: number): number {
  const v = Math.floor(sample * 32768 + 0.5);
  return Math.min(32767, Math.max(-32768, v));
}

/** Mono float samples → a complete 16-bit PCM wav file. */
export function encodeWav16(samples: Float32Array, sampleRate: number): ArrayBuffer {
  if (!Number.isInteger(sampleRate) || sampleRate <= 0) {
    throw new WavFormatError(`sample rate must be a positive integer, got ${sampleRate}`);
  }
  const buffer = new ArrayBuffer(WAV_HEADER_BYTES + samples.length * 2);
  const view = new DataView(buffer);
  writeWav16Header(view, samples.length, sampleRate);
  const pcm = new Int16Array(buffer, WAV_HEADER_BYTES, samples.length);
  for (let i = 0; i < samples.length; i++) pcm[i] = floatToInt16(samples[i]);
  return buffer;
}

/** What is structurally wrong with a wav header (WavFormatError.problem), for callers that explain it. */
export type WavProblem =
  | 'not_riff'
  | 'no_fmt'
  | 'truncated_fmt'
  | 'data_before_fmt'
  | 'no_data'
  | 'zero_channels'
  | 'zero_rate'
  | 'bad_block_align'
  | 'encoding';

export class WavFormatError extends Error {
  readonly code = 'BAD_WAV';
  constructor(
    detail: string,
    readonly problem: WavProblem = 'encoding',
  ) {
    super(`Not a readable wav file: ${detail}.`);
    this.name = 'WavFormatError';
  }
}

/** A wav header whose every field is consistent with the bytes that follow it. */
export interface WavHeader {
  /** Format tag (1 PCM, 3 float; WAVE_FORMAT_EXTENSIBLE resolved to its sub-format). */
  tag: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** Bytes per frame: at least channels × bytes per sample (the header's value, or that product when it says 0). */
  blockAlign: number;
  /** Byte offset of the first sample. */
  dataOffset: number;
  /** Bytes of sample data present in the file. */
  dataBytes: number;
  /** Whole frames in the data. */
  frames: number;
}

/**
 * Reads and checks the RIFF/WAVE structure without touching a sample: every field the decoder relies
 * on is checked against the file, so reading `frames` frames of `blockAlign` bytes from `dataOffset`
 * stays inside it whatever the header claims. The encoding itself (tag, bits) is not judged here:
 * decodeWav and the server's take check each have their own list of what they read.
 */
export function readWavHeader(input: ArrayBuffer | ArrayBufferView): WavHeader {
  const view =
    input instanceof ArrayBuffer
      ? new DataView(input)
      : new DataView(input.buffer, input.byteOffset, input.byteLength);
  if (view.byteLength < 12) throw new WavFormatError(`only ${view.byteLength} bytes`, 'not_riff');
  if (readAscii(view, 0) !== 'RIFF' || readAscii(view, 8) !== 'WAVE') {
    throw new WavFormatError('missing RIFF/WAVE signature', 'not_riff');
  }
  let offset = 12;
  let fmt: { tag: number; channels: number; sampleRate: number; bits: number; blockAlign: number } | null =
    null;
  while (offset + 8 <= view.byteLength) {
    const id = readAscii(view, offset);
    let size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16) throw new WavFormatError('fmt chunk shorter than 16 bytes', 'truncated_fmt');
      if (body + 16 > view.byteLength) throw new WavFormatError('fmt chunk cut short', 'truncated_fmt');
      let tag = view.getUint16(body, true);
      // WAVE_FORMAT_EXTENSIBLE: the real format is the first two bytes of the sub-format GUID.
      if (tag === 0xfffe && size >= 40) {
        if (body + 26 > view.byteLength) throw new WavFormatError('fmt chunk cut short', 'truncated_fmt');
        tag = view.getUint16(body + 24, true);
      }
      fmt = {
        tag,
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        blockAlign: view.getUint16(body + 12, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      if (!fmt) throw new WavFormatError('data chunk before fmt chunk', 'data_before_fmt');
      // Streaming writers leave 0 or 0xFFFFFFFF as the size; take what is there.
      if (size === 0 || size === 0xffffffff || body + size > view.byteLength) size = view.byteLength - body;
      return checkedHeader(fmt, body, size);
    }
    offset = body + size + (size & 1);
  }
  throw fmt ? new WavFormatError('no data chunk', 'no_data') : new WavFormatError('no fmt chunk', 'no_fmt');
}

function checkedHeader(
  fmt: { tag: number; channels: number; sampleRate: number; bits: number; blockAlign: number },
  dataOffset: number,
  dataBytes: number,
): WavHeader {
  if (fmt.channels < 1) throw new WavFormatError('zero channels', 'zero_channels');
  if (fmt.sampleRate < 1) throw new WavFormatError('zero sample rate', 'zero_rate');
  const minimum = fmt.channels * Math.ceil(fmt.bits / 8);
  const blockAlign = fmt.blockAlign || minimum;
  // A smaller block than its samples would read each frame past the next one, and the last past the
  // end of the file.
  if (blockAlign < minimum || blockAlign < 1) {
    throw new WavFormatError(
      `block align ${fmt.blockAlign} is smaller than ${fmt.channels} channels × ${fmt.bits} bits`,
      'bad_block_align',
    );
  }
  return {
    tag: fmt.tag,
    channels: fmt.channels,
    sampleRate: fmt.sampleRate,
    bitsPerSample: fmt.bits,
    blockAlign,
    dataOffset,
    dataBytes,
    frames: Math.floor(dataBytes / blockAlign),
  };
}

/** Reads any common PCM/float wav. Throws WavFormatError naming what is wrong. */
export function decodeWav(input: ArrayBuffer | ArrayBufferView): DecodedWav {
  const view =
    input instanceof ArrayBuffer
      ? new DataView(input)
      : new DataView(input.buffer, input.byteOffset, input.byteLength);
  const header = readWavHeader(view);
  const { tag, channels: count, bitsPerSample: bits, sampleRate, blockAlign, frames } = header;
  const isFloat = tag === 3;
  if (tag !== 1 && !isFloat) throw new WavFormatError(`compressed format tag ${tag} (only PCM and float)`);
  const bytesPer = bits / 8;
  if (isFloat ? bits !== 32 && bits !== 64 : ![8, 16, 24, 32].includes(bits)) {
    throw new WavFormatError(`${bits}-bit ${isFloat ? 'float' : 'PCM'} samples`);
  }
  const start = header.dataOffset;
  const channels = Array.from({ length: count }, () => new Float32Array(frames));
  for (let i = 0; i < frames; i++) {
    const frameStart = start + i * blockAlign;
    for (let c = 0; c < count; c++) {
      const p = frameStart + c * bytesPer;
      let v: number;
      if (isFloat) v = bits === 32 ? view.getFloat32(p, true) : view.getFloat64(p, true);
      else if (bits === 16) v = view.getInt16(p, true) / 32768;
      else if (bits === 8) v = (view.getUint8(p) - 128) / 128;
      else if (bits === 24) {
        const raw = view.getUint8(p) | (view.getUint8(p + 1) << 8) | (view.getInt8(p + 2) << 16);
        v = raw / 8388608;
      } else v = view.getInt32(p, true) / 2147483648;
      channels[c][i] = v;
    }
  }
  return { sampleRate, channels, bitsPerSample: bits, format: isFloat ? 'float' : 'pcm' };
}

/** Averages all channels into one (the AI service scores mono). */
export function toMono(decoded: DecodedWav): Float32Array {
  if (decoded.channels.length === 1) return decoded.channels[0];
  const out = new Float32Array(decoded.channels[0].length);
  for (const ch of decoded.channels) for (let i = 0; i < out.length; i++) out[i] += ch[i];
  for (let i = 0; i < out.length; i++) out[i] /= decoded.channels.length;
  return out;
}

function writeAscii(view: DataView, offset: number, text: string): void {
  for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i));
}

function readAscii(view: DataView, offset: number): string {
  return String.fromCharCode(
    view.getUint8(offset),
    view.getUint8(offset + 1),
    view.getUint8(offset + 2),
    view.getUint8(offset + 3),
  );
}
