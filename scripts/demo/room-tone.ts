/**
 * Faint, deterministic room tone under the whole track. Without it the pauses between lines are
 * digital zeros, which sounds like a dropout, and a "noise floor" test would compare against -120 dB.
 * Low-passed white noise from a seeded PRNG, so the same build gives the same samples.
 */
export const ROOM_TONE_DBFS = -60;

export function addRoomTone(samples: Float32Array, rate: number, seed: number, dbfs = ROOM_TONE_DBFS): void {
  let state = seed >>> 0 || 1;
  const next = () => {
    // xorshift32
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0xffffffff - 0.5;
  };
  // One-pole low-pass at ~1 kHz: a soft hum of air rather than hiss.
  const a = Math.exp((-2 * Math.PI * 1000) / rate);
  const noise = new Float32Array(samples.length);
  let y = 0;
  let energy = 0;
  for (let i = 0; i < noise.length; i++) {
    y = a * y + (1 - a) * next();
    noise[i] = y;
    energy += y * y;
  }
  const rms = Math.sqrt(energy / Math.max(1, noise.length));
  if (rms === 0) return;
  const gain = 10 ** (dbfs / 20) / rms;
  for (let i = 0; i < samples.length; i++) samples[i] += noise[i] * gain;
}
