import { describe, expect, it } from 'vitest';
import { decodeWav, encodeWav16, floatToInt16, toMono, WavFormatError } from '../../../src/audio/dsp/wav';
import { noise } from './signals';

const ascii = (bytes: Uint8Array, from: number) => String.fromCharCode(...bytes.subarray(from, from + 4));

/** Builds a wav by hand so the decoder is tested against bytes it did not write itself. */
function handWav(opts: {
  tag: number;
  bits: number;
  channels: number;
  rate: number;
  data: Uint8Array;
  extensible?: boolean;
  extraChunk?: boolean;
}): ArrayBuffer {
  const fmtSize = opts.extensible ? 40 : 16;
  const extra = opts.extraChunk ? 8 + 5 + 1 : 0; // odd-sized LIST chunk plus its pad byte
  const size = 12 + 8 + fmtSize + extra + 8 + opts.data.length;
  const buf = new ArrayBuffer(size);
  const v = new DataView(buf);
  const u = new Uint8Array(buf);
  const put = (o: number, s: string) => {
    for (let i = 0; i < 4; i++) u[o + i] = s.charCodeAt(i);
  };
  put(0, 'RIFF');
  v.setUint32(4, size - 8, true);
  put(8, 'WAVE');
  let o = 12;
  if (opts.extraChunk) {
    put(o, 'LIST');
    v.setUint32(o + 4, 5, true);
    o += 8 + 6;
  }
  put(o, 'fmt ');
  v.setUint32(o + 4, fmtSize, true);
  v.setUint16(o + 8, opts.extensible ? 0xfffe : opts.tag, true);
  v.setUint16(o + 10, opts.channels, true);
  v.setUint32(o + 12, opts.rate, true);
  const align = Math.ceil(opts.bits / 8) * opts.channels; // 12-bit samples take 2 bytes
  v.setUint32(o + 16, opts.rate * align, true);
  v.setUint16(o + 20, align, true);
  v.setUint16(o + 22, opts.bits, true);
  if (opts.extensible) {
    v.setUint16(o + 24, 22, true);
    v.setUint16(o + 32, opts.tag, true); // sub-format GUID starts with the real tag
  }
  o += 8 + fmtSize;
  put(o, 'data');
  v.setUint32(o + 4, opts.data.length, true);
  u.set(opts.data, o + 8);
  return buf;
}

describe('encodeWav16', () => {
  it('writes a canonical 44-byte PCM header for mono 16 kHz', () => {
    const wav = encodeWav16(new Float32Array(1000), 16000);
    const b = new Uint8Array(wav);
    const v = new DataView(wav);
    expect(wav.byteLength).toBe(44 + 2000);
    expect(ascii(b, 0)).toBe('RIFF');
    expect(v.getUint32(4, true)).toBe(36 + 2000);
    expect(ascii(b, 8)).toBe('WAVE');
    expect(ascii(b, 12)).toBe('fmt ');
    expect(v.getUint32(16, true)).toBe(16);
    expect(v.getUint16(20, true)).toBe(1); // PCM
    expect(v.getUint16(22, true)).toBe(1); // mono
    expect(v.getUint32(24, true)).toBe(16000);
    expect(v.getUint32(28, true)).toBe(32000); // byte rate
    expect(v.getUint16(32, true)).toBe(2); // block align
    expect(v.getUint16(34, true)).toBe(16);
    expect(ascii(b, 36)).toBe('data');
    expect(v.getUint32(40, true)).toBe(2000);
  });

  it('round-trips every int16 value exactly', () => {
    const all = new Float32Array(65536);
    for (let i = 0; i < all.length; i++) all[i] = (i - 32768) / 32768;
    const wav = encodeWav16(all, 16000);
    const pcm = new Int16Array(wav, 44);
    for (let i = 0; i < all.length; i++) if (pcm[i] !== i - 32768) throw new Error(`sample ${i} → ${pcm[i]}`);
    const back = decodeWav(wav);
    expect(back.sampleRate).toBe(16000);
    expect(back.channels).toHaveLength(1);
    expect(Array.from(back.channels[0])).toEqual(Array.from(all));
  });

  it('clips out-of-range samples instead of wrapping', () => {
    expect(floatToInt16(1)).toBe(32767);
    expect(floatToInt16(3)).toBe(32767);
    expect(floatToInt16(-1)).toBe(-32768);
    expect(floatToInt16(-7)).toBe(-32768);
    const pcm = new Int16Array(encodeWav16(Float32Array.of(2, -2, 0.5), 8000), 44);
    expect(Array.from(pcm)).toEqual([32767, -32768, 16384]);
  });

  it('rounds every float32 sample half up, exactly as Math.round would', () => {
    // Every half and quarter step of the int16 grid (the ties and their neighbours), then noise.
    const steps = Float32Array.from({ length: 4 * 65536 + 1 }, (_, i) => (i - 2 * 65536) / (4 * 32768));
    const samples = new Float32Array([...steps, ...noise(50_000, 8)]);
    const pcm = new Int16Array(encodeWav16(samples, 16000), 44);
    let checked = 0;
    for (let i = 0; i < samples.length; i++) {
      const want = Math.min(32767, Math.max(-32768, Math.round(samples[i] * 32768)));
      if (pcm[i] !== want) throw new Error(`${samples[i]} → ${pcm[i]}, Math.round gives ${want}`);
      checked++;
    }
    expect(checked).toBe(samples.length);
    expect(floatToInt16(0.5 / 32768)).toBe(1);
    expect(floatToInt16(-0.5 / 32768)).toBe(0);
    expect(floatToInt16(-1.5 / 32768)).toBe(-1);
  });

  it('rejects a fractional sample rate', () => {
    expect(() => encodeWav16(new Float32Array(4), 44100.5)).toThrow(WavFormatError);
  });
});

describe('decodeWav', () => {
  it('reads 24-bit stereo PCM inside WAVE_FORMAT_EXTENSIBLE after an odd-sized extra chunk', () => {
    const data = new Uint8Array(12);
    const v = new DataView(data.buffer);
    const put24 = (o: number, x: number) => {
      v.setUint8(o, x & 0xff);
      v.setUint8(o + 1, (x >> 8) & 0xff);
      v.setInt8(o + 2, x >> 16);
    };
    put24(0, 4194304); // +0.5 left
    put24(3, -8388608); // -1 right
    put24(6, -1); // tiny negative left
    put24(9, 0);
    const wav = decodeWav(
      handWav({ tag: 1, bits: 24, channels: 2, rate: 48000, data, extensible: true, extraChunk: true }),
    );
    expect(wav.sampleRate).toBe(48000);
    expect(wav.bitsPerSample).toBe(24);
    expect(Array.from(wav.channels[0])).toEqual([0.5, -1 / 8388608]);
    expect(Array.from(wav.channels[1])).toEqual([-1, 0]);
    expect(Array.from(toMono(wav))).toEqual([-0.25, -0.5 / 8388608]);
  });

  it('reads 32-bit float and 8-bit PCM', () => {
    const f = new Float32Array([0.25, -0.75]);
    const float = decodeWav(
      handWav({ tag: 3, bits: 32, channels: 1, rate: 22050, data: new Uint8Array(f.buffer) }),
    );
    expect(float.format).toBe('float');
    expect(Array.from(float.channels[0])).toEqual([0.25, -0.75]);
    const u8 = decodeWav(
      handWav({ tag: 1, bits: 8, channels: 1, rate: 8000, data: Uint8Array.of(128, 192, 0) }),
    );
    expect(Array.from(u8.channels[0])).toEqual([0, 0.5, -1]);
  });

  it('reads a streaming writer’s data size of 0 to the end of the file', () => {
    const wav = encodeWav16(Float32Array.of(0.5, -0.5), 16000);
    new DataView(wav).setUint32(40, 0, true);
    expect(Array.from(decodeWav(wav).channels[0])).toEqual([0.5, -0.5]);
  });

  it('accepts a streaming writer’s data size of 0xFFFFFFFF', () => {
    const wav = encodeWav16(Float32Array.of(0.5, -0.5), 16000);
    new DataView(wav).setUint32(40, 0xffffffff, true);
    expect(Array.from(decodeWav(wav).channels[0])).toEqual([0.5, -0.5]);
  });

  it.each([
    ['too short', new Uint8Array(4).buffer, /only 4 bytes/],
    ['not RIFF', new TextEncoder().encode('RIFX0000WAVEfmt ').buffer, /signature/],
    [
      'compressed',
      handWav({ tag: 85, bits: 16, channels: 1, rate: 8000, data: new Uint8Array(2) }),
      /format tag 85/,
    ],
    ['12-bit', handWav({ tag: 1, bits: 12, channels: 1, rate: 8000, data: new Uint8Array(2) }), /12-bit/],
    [
      'lying about its block align (1 byte for 16-bit stereo)',
      (() => {
        const b = handWav({ tag: 1, bits: 16, channels: 2, rate: 8000, data: new Uint8Array(64) });
        new DataView(b).setUint16(32, 1, true);
        return b;
      })(),
      /block align 1 is smaller than 2 channels × 16 bits/,
    ],
    [
      'extensible, cut inside its sub-format',
      (() => {
        const b = new Uint8Array(
          handWav({ tag: 1, bits: 16, channels: 1, rate: 8000, data: new Uint8Array(0), extensible: true }),
        );
        return b.slice(0, 12 + 8 + 20).buffer;
      })(),
      /fmt chunk cut short/,
    ],
  ])('rejects a file that is %s with a readable reason', (_name, buf, reason) => {
    expect(() => decodeWav(buf as ArrayBuffer)).toThrow(WavFormatError);
    expect(() => decodeWav(buf as ArrayBuffer)).toThrow(reason);
  });

  it('decodes a view into a larger buffer at an offset', () => {
    const wav = new Uint8Array(encodeWav16(Float32Array.of(0.125), 16000));
    const big = new Uint8Array(wav.length + 10);
    big.set(wav, 7);
    expect(Array.from(decodeWav(big.subarray(7, 7 + wav.length)).channels[0])).toEqual([0.125]);
  });
});
