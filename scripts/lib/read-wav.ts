/**
 * Minimal PCM wav reader for the evaluation scripts (16-bit, 24-bit, 32-bit float; mixes to mono).
 * Kept tiny on purpose; the app decodes uploads with src/audio/dsp.
 */
export interface MonoWav {
  sampleRate: number;
  samples: Float32Array;
}

export function readWavMono(bytes: Uint8Array): MonoWav {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (o: number) => String.fromCharCode(bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]);
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('not a RIFF/WAVE file');
  let off = 12;
  let format = 0;
  let channels = 0;
  let sampleRate = 0;
  let bits = 0;
  while (off + 8 <= bytes.length) {
    const id = tag(off);
    const size = view.getUint32(off + 4, true);
    const body = off + 8;
    if (id === 'fmt ') {
      format = view.getUint16(body, true);
      channels = view.getUint16(body + 2, true);
      sampleRate = view.getUint32(body + 4, true);
      bits = view.getUint16(body + 14, true);
      if (format === 0xfffe) format = view.getUint16(body + 24, true);
    } else if (id === 'data') {
      const bytesPer = bits / 8;
      const end = Math.min(bytes.length, body + size);
      const frames = Math.floor((end - body) / (bytesPer * channels));
      const samples = new Float32Array(frames);
      for (let i = 0; i < frames; i++) {
        let acc = 0;
        for (let c = 0; c < channels; c++) {
          const p = body + (i * channels + c) * bytesPer;
          if (format === 1 && bits === 16) acc += view.getInt16(p, true) / 32768;
          else if (format === 1 && bits === 24)
            acc +=
              ((view.getUint8(p) | (view.getUint8(p + 1) << 8) | (view.getInt8(p + 2) << 16)) as number) /
              8388608;
          else if (format === 3 && bits === 32) acc += view.getFloat32(p, true);
          else throw new Error(`unsupported wav encoding: format ${format}, ${bits} bits`);
        }
        samples[i] = acc / channels;
      }
      return { sampleRate, samples };
    }
    off = body + size + (size & 1);
  }
  throw new Error('wav has no data chunk');
}
