/**
 * `npm run bench:ai` — cost of scoring one 3 s take.
 *
 * 1. In one process: analysis + scoring latency (p50/p95) of a 3 s take against a cached actor
 *    analysis (what the service does per request once the line's reference is cached), its parts,
 *    and the real-time factor.
 * 2. The service: a real server in a child process (SQLite, AI_WORKERS=2 by default) loaded with
 *    autocannon over loopback, multipart uploads of the same take; requests/s and latency.
 *    The machine's cores are shared by the server, its workers and autocannon.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { analyzeVoice, classifyEmotion } from '../src/audio/analysis';
import { decodeWav, encodeWav16, toMono } from '../src/audio/dsp/wav';
import { analyseReference, scoreTake, toReferenceRecord } from '../src/audio/scoring/pipeline';
import { buildSpeechScore } from '../src/audio/scoring/score';
import { runScoreJob } from '../server/ai/score-task';

const ROOT = path.resolve(import.meta.dirname, '..');
const FIX = path.join(ROOT, 'tests/fixtures/emodb');
const RATE = 16_000;
const TAKE_SECONDS = 3;

/** Two real EmoDB fixture takes back to back, cut to exactly 3 s (16 kHz mono). */
function threeSeconds(a: string, b: string): Float32Array {
  const read = (f: string) => toMono(decodeWav(new Uint8Array(fs.readFileSync(path.join(FIX, f)))));
  const out = new Float32Array(TAKE_SECONDS * RATE);
  const first = read(a);
  out.set(first.subarray(0, Math.min(first.length, out.length)));
  const second = read(b);
  if (first.length < out.length) out.set(second.subarray(0, out.length - first.length), first.length);
  return out;
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

interface Timing {
  wall: number[];
  /** Process CPU time (user + system) per run: robust when other work shares the cores. */
  cpu: number[];
}

function time(n: number, fn: () => void): Timing {
  for (let i = 0; i < 15; i++) fn(); // warm-up (JIT, allocations of the analysers)
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < n; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall: wall.sort((x, y) => x - y), cpu: cpu.sort((x, y) => x - y) };
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const row = (t: Timing) =>
  `wall p50 ${fmt(percentile(t.wall, 0.5))} p95 ${fmt(percentile(t.wall, 0.95))} | cpu p50 ${fmt(percentile(t.cpu, 0.5))} p95 ${fmt(percentile(t.cpu, 0.95))}`;

function inProcess(): void {
  const take = threeSeconds('15a01Wa.wav', '15a02Wd.wav');
  const actor = threeSeconds('15a01Nb.wav', '15a02La.wav');
  const record = toReferenceRecord(analyseReference(actor, RATE));
  const wav = new Uint8Array(encodeWav16(take, RATE));
  const meta = { takeId: 'bench', subtitlesId: 's', filmId: 'f', attempt: 1, audioUrl: '', createdAt: '' };
  const N = 60;

  const analysis = time(N, () => analyzeVoice(take, RATE));
  const learner = analyzeVoice(take, RATE);
  const emotion = classifyEmotion(learner.features, null);
  const ref = analyseReference(actor, RATE);
  const scoring = time(N, () =>
    buildSpeechScore({
      ...meta,
      learner,
      learnerEmotion: emotion,
      actor: ref.analysis,
      actorEmotion: ref.emotion,
      targetEmotion: null,
    }),
  );
  const firstTake = time(20, () => {
    scoreTake(take, RATE, {
      meta,
      reference: analyseReference(actor, RATE),
      targetEmotion: null,
      speakerStats: null,
    });
  });

  console.log(
    `bench:ai — ${TAKE_SECONDS} s take (EmoDB fixtures, 16 kHz mono), node ${process.version}, ${os.cpus().length} cores`,
  );
  console.log('');
  // The end-to-end figure is measured last, when every code path is warm.
  const full = time(N, () => {
    runScoreJob({ wav: wav.slice(), reference: { record }, targetEmotion: null, speakerStats: null, meta });
  });
  const load = os.loadavg()[0].toFixed(1);
  console.log(
    `In one process, ${N} runs after warm-up (1-min load average ${load} on ${os.cpus().length} cores):`,
  );
  console.log(`  decode + analysis + emotion + comparison + result (cached actor): ${row(full)}`);
  console.log(`    of which analyzeVoice alone:                                    ${row(analysis)}`);
  console.log(`    of which comparison + scoring + tips (buildSpeechScore):        ${row(scoring)}`);
  console.log(`  first take of a line (actor analysed too, then cached):           ${row(firstTake)}`);
  const rtf = (ms: number) => (ms / 1000 / TAKE_SECONDS).toFixed(4);
  console.log(
    `  real-time factor (p50 / ${TAKE_SECONDS} s): wall ${rtf(percentile(full.wall, 0.5))}, cpu ${rtf(percentile(full.cpu, 0.5))}`,
  );
  console.log('  goal: p50 ≤ 30 ms');
}

function multipartBody(wav: Uint8Array): { body: Buffer; contentType: string } {
  const boundary = `----bench${Date.now().toString(16)}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head =
    field('subtitlesId', 'ai-film-2') +
    field('filmId', 'ai-film') +
    field('attempt', '1') +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="ai-film-2.wav"\r\nContent-Type: audio/wav\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), Buffer.from(wav), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function service(): Promise<void> {
  const child = spawn(process.execPath, [...process.execArgv, path.join(ROOT, 'bench/ai-server.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env },
  });
  const ready = await new Promise<{ url: string; token: string; workers: number }>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  try {
    const wav = new Uint8Array(encodeWav16(threeSeconds('15a01Wa.wav', '15a02Wd.wav'), RATE));
    const { body, contentType } = multipartBody(wav);
    const url = `${ready.url}/ai/speech_emotion`;
    const headers = { token: ready.token, 'content-type': contentType };
    // Prime: the first request analyses and caches the actor's line and warms the workers.
    for (let i = 0; i < 4; i++) await fetch(url, { method: 'POST', headers, body });
    const result = await autocannon({ url, method: 'POST', headers, body, connections: 4, duration: 10 });
    const ok2xx = result['2xx'];
    console.log('');
    console.log(
      `Service over loopback (${ready.workers} scoring workers, SQLite, 4 connections, 10 s, multipart ${(body.length / 1024).toFixed(0)} KiB):`,
    );
    console.log(
      `  requests/s: ${result.requests.average.toFixed(1)} (2xx ${ok2xx}, non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`,
    );
    console.log(
      `  latency: p50 ${result.latency.p50} ms  p97.5 ${result.latency.p97_5} ms  p99 ${result.latency.p99} ms`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

inProcess();
await service();
