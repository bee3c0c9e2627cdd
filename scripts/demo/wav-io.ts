/**
 * A tiny RIFF/WAVE reader and writer for the demo builder: PCM 16-bit mono only, which is all
 * EmoDB holds and all the fixtures need. Samples travel as Float32 in [-1, 1].
 */
export interface MonoPcm {
  sampleRate: number;
  samples: Float32Array;
}

export function readWav(bytes: Uint8Array, label = 'wav'): MonoPcm {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.byteLength < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') {
    throw new Error(`${label}: not a RIFF/WAVE file`);
  }
  let sampleRate = 0;
  let channels = 0;
  let bits = 0;
  let format = 0;
  let offset = 12;
  while (offset + 8 <= bytes.byteLength) {
    const id = tag(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      format = view.getUint16(body, true);
      channels = view.getUint16(body + 2, true);
      sampleRate = view.getUint32(body + 4, true);
      bits = view.getUint16(body + 14, true);
    } else if (id === 'data') {
      if (format !== 1 || channels !== 1 || bits !== 16) {
        throw new Error(
          `${label}: expected PCM 16-bit mono, got format ${format}, ${channels} ch, ${bits} bit`,
        );
      }
      const count = Math.floor(Math.min(size, bytes.byteLength - body) / 2);
      const samples = new Float32Array(count);
      for (let i = 0; i < count; i++) samples[i] = view.getInt16(body + i * 2, true) / 32768;
      return { sampleRate, samples };
    }
    // Chunks are padded to an even length.
    offset = body + size + (size % 2);
  }
  throw new Error(`${label}: no data chunk`);
}

export function writeWav(pcm: MonoPcm): Uint8Array {
  const { sampleRate, samples } = pcm;
  const bytes = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(bytes.buffer);
  const text = (at: number, value: string) => {
    for (let i = 0; i < value.length; i++) bytes[at + i] = value.charCodeAt(i);
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]));
    view.setInt16(44 + i * 2, Math.round(s < 0 ? s * 32768 : s * 32767), true);
  }
  return bytes;
}
