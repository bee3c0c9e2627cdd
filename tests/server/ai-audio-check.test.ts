import { describe, expect, it } from 'vitest';
import { checkTakeWav } from '../../server/ai/audio-check';
import { AppError } from '../../server/lib/app-error';
import { rawWav } from './ai-support';

function reasonOf(bytes: Uint8Array): string | null {
  try {
    checkTakeWav(bytes);
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return ((err as AppError).data as { reason: string }).reason;
  }
}

/** Inserts a chunk (e.g. LIST) between the RIFF header and `fmt `, as many recorders write. */
function withChunkBeforeFmt(wav: Uint8Array, id: string, size: number): Uint8Array {
  const out = new Uint8Array(wav.length + 8 + size);
  out.set(wav.subarray(0, 12));
  const v = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) out[12 + i] = id.charCodeAt(i);
  v.setUint32(16, size, true);
  out.set(wav.subarray(12), 20 + size);
  return out;
}

/** Rewrites a canonical header as WAVE_FORMAT_EXTENSIBLE with the given sub-format. */
function extensible(subFormat: number, bits = 16): Uint8Array {
  const pcm = rawWav({ bits, seconds: 0.5 });
  const data = pcm.subarray(36);
  const out = new Uint8Array(12 + 8 + 40 + data.length);
  out.set(pcm.subarray(0, 12));
  const v = new DataView(out.buffer);
  out.set([0x66, 0x6d, 0x74, 0x20], 12); // 'fmt '
  v.setUint32(16, 40, true);
  v.setUint16(20, 0xfffe, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, 16_000, true);
  v.setUint32(28, 16_000 * (bits / 8), true);
  v.setUint16(32, bits / 8, true);
  v.setUint16(34, bits, true);
  v.setUint16(36, 22, true);
  v.setUint16(44, subFormat, true); // first two bytes of the sub-format GUID
  out.set(data, 60);
  return out;
}

describe('checkTakeWav', () => {
  it.each([
    ['16-bit PCM mono 16 kHz', rawWav({}), null],
    ['16-bit PCM stereo 48 kHz', rawWav({ channels: 2, rate: 48_000 }), null],
    ['32-bit float mono 44.1 kHz', rawWav({ tag: 3, bits: 32, rate: 44_100 }), null],
    ['exactly 60 s', rawWav({ seconds: 60 }), null],
    ['exactly 0.2 s', rawWav({ seconds: 0.2 }), null],
    ['a LIST chunk before fmt', withChunkBeforeFmt(rawWav({}), 'LIST', 26), null],
    ['WAVE_FORMAT_EXTENSIBLE with PCM inside', extensible(1), null],
    ['WAVE_FORMAT_EXTENSIBLE with A-law inside', extensible(6, 8), 'unsupported_encoding'],
    ['64-bit float', rawWav({ tag: 3, bits: 64 }), 'unsupported_encoding'],
    ['12 bytes of RIFF header only', rawWav({}).subarray(0, 12), 'not_wav'],
    [
      'RIFF but AVI',
      (() => {
        const w = rawWav({});
        w.set([0x41, 0x56, 0x49, 0x20], 8);
        return w;
      })(),
      'not_wav',
    ],
    ['60.1 s', rawWav({ seconds: 60.1 }), 'too_long'],
    ['0.19 s', rawWav({ seconds: 0.19 }), 'too_short'],
    ['96 kHz', rawWav({ rate: 96_000, seconds: 0.5 }), 'unsupported_rate'],
  ])('%s → %s', (_name, bytes, reason) => {
    expect(reasonOf(bytes as Uint8Array)).toBe(reason);
  });

  it('reports the duration and format of an accepted take', () => {
    expect(checkTakeWav(rawWav({ channels: 2, rate: 22_050, seconds: 1.5 }))).toEqual({
      sampleRate: 22_050,
      channels: 2,
      format: 'pcm16',
      frames: 33_075,
      durationSeconds: 1.5,
      dataOffset: 44,
      blockAlign: 4,
    });
  });
});
