/**
 * npx tsx scripts/emotion/speed.ts — latency of analyzeVoice + classifyEmotion for a 3 s take
 * (two EmoDB fixture takes joined and cut to 3 s), at 16 kHz input and at 44.1 kHz input (which
 * adds the resampler). Prints wall-clock p50/p95 and CPU time per take, single thread.
 * Timings vary with machine load; on a shared machine, the CPU-time figure is the fairer one.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeVoice, classifyEmotion, updateSpeakerStats } from '../../src/audio/analysis';
import { resample } from '../../src/audio/dsp/resample';
import { decodeWav, toMono } from '../../src/audio/dsp/wav';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const load = (f: string) => {
  const w = decodeWav(readFileSync(resolve(root, 'tests', 'fixtures', 'emodb', f)));
  return { rate: w.sampleRate, x: toMono(w) };
};
const a = load('15a01Wa.wav');
const b = load('15a07Ld.wav');
const joined = new Float32Array(a.x.length + b.x.length);
joined.set(a.x);
joined.set(b.x, a.x.length);
const take16 = joined.subarray(0, 3 * a.rate);
const take441 = resample(take16, a.rate, 44_100);

function measure(label: string, x: Float32Array, rate: number, runs = 60): void {
  const stats = updateSpeakerStats(null, analyzeVoice(x, rate).features);
  for (let i = 0; i < 5; i++) classifyEmotion(analyzeVoice(x, rate).features, stats); // warm-up (JIT)
  const wall: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    classifyEmotion(analyzeVoice(x, rate).features, stats);
    wall.push(performance.now() - t);
  }
  const cpu = process.cpuUsage(cpu0);
  wall.sort((p, q) => p - q);
  const q = (p: number) => wall[Math.min(wall.length - 1, Math.floor(p * wall.length))].toFixed(1);
  const cpuMs = (cpu.user + cpu.system) / 1000 / runs;
  console.log(
    `${label}: wall p50 ${q(0.5)} ms, p95 ${q(0.95)} ms; CPU ${cpuMs.toFixed(1)} ms/take; ` +
      `real-time factor ${(cpuMs / 1000 / (x.length / rate)).toFixed(4)}`,
  );
}

console.log(`3 s take (${take16.length} samples at ${a.rate} Hz), analysis + classification:`);
measure('16 kHz input', take16, a.rate);
measure('44.1 kHz input', take441, 44_100);
