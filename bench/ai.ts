/**
 * `npm run bench:ai` — cost of scoring one 3 s take.
 *
 * 1. In one process: analysis + scoring latency (p50/p95) of a 3 s take against a cached actor
 *    analysis (what the service does per request once the line's reference is cached), its parts,
 *    and the real-time factor.
 * 1b. The word check beside the job (server/ai/take-words.ts): what running it concurrently with the
 *    analysis adds to line end → score for a 4 s take, per language, beside the job alone.
 *    `npm run bench:ai -- --words` runs this part alone.
 * 2. The service: a real server in a child process (SQLite, AI_WORKERS=2 by default) loaded with
 *    autocannon over loopback, multipart uploads of the same take; requests/s and latency.
 *    The machine's cores are shared by the server, its workers and autocannon.
 *    `BENCH_PROFILE=<dir>` records CPU profiles of the service during the load: its event loop (V8's
 *    sampler through the inspector, as `node --cpu-prof`) and each scoring worker (`--cpu-prof`), and
 *    prints where each spent its time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { analyzeVoice, classifyEmotion } from '../src/audio/analysis';
import { decodeWav, encodeWav16, toMono } from '../src/audio/dsp/wav';
import {
  analyseReference,
  fromReferenceRecord,
  scoreTake,
  toReferenceRecord,
} from '../src/audio/scoring/pipeline';
import { buildSpeechScore } from '../src/audio/scoring/score';
import type { SpeechScore } from '../src/api/contract';
import { ScoringPool } from '../server/ai/pool';
import { runScoreJob } from '../server/ai/score-task';
import { checkLineWords, wordSamplesChannel } from '../server/ai/take-words';
import { checkWords } from '../server/words';
import { storeTake } from '../server/takes/repository';
import { runForTake } from '../server/takes/runs';
import { startTestServer } from '../tests/support/server';
import { apiSuspects, formatSuspects } from './api-suspects';
import { startChild } from './child';
import { type NodeCpuProfile, summarise } from './cpu-profile';

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
  /** CPU time of the child processes that ended during each run (the English engine's runs). */
  children?: number[];
}

/**
 * CPU time (ms) of this process's children that have ended (Linux: /proc/self/stat cutime + cstime, in
 * clock ticks of 10 ms), or NaN where that file is missing. process.cpuUsage counts this process only.
 */
function childrenCpu(): number {
  try {
    // Fields after the command's closing parenthesis: state is field 3, cutime and cstime 16 and 17.
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return Number.NaN;
  }
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

const p50 = (t: Timing) => percentile(t.wall, 0.5);

function inProcess(): void {
  const take = threeSeconds('15a01Wa.wav', '15a02Wd.wav');
  const actor = threeSeconds('15a01Nb.wav', '15a02La.wav');
  const record = toReferenceRecord(analyseReference(actor, RATE));
  const wav = new Uint8Array(encodeWav16(take, RATE));
  const meta = { takeId: 'bench', subtitlesId: 's', filmId: 'f', attempt: 1, audioUrl: '', createdAt: '' };
  const N = 60;

  const decode = time(N, () => toMono(decodeWav(wav)));
  const restore = time(N, () => fromReferenceRecord(record));
  const analysis = time(N, () => analyzeVoice(take, RATE));
  const learner = analyzeVoice(take, RATE);
  const model = time(N, () => classifyEmotion(learner.features, null));
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
  console.log(`  the whole job (runScoreJob, cached actor):                        ${row(full)}`);
  console.log(`    floor: analyzeVoice alone                                       ${row(analysis)}`);
  console.log(`    decode the wav (decodeWav + toMono)                             ${row(decode)}`);
  console.log(`    restore the cached actor analysis (+ its emotion)               ${row(restore)}`);
  console.log(`    emotion model (classifyEmotion)                                 ${row(model)}`);
  console.log(`    comparison + scoring + tips (buildSpeechScore)                  ${row(scoring)}`);
  const parts = p50(decode) + p50(restore) + p50(analysis) + p50(model) + p50(scoring);
  console.log(
    `  whole job ÷ analysis alone: ${(p50(full) / p50(analysis)).toFixed(2)} by wall p50 ` +
      `(the parts' p50s add up to ${fmt(parts)}, the job's is ${fmt(p50(full))})`,
  );
  console.log(`  first take of a line (actor analysed too, then cached):           ${row(firstTake)}`);
  const rtf = (ms: number) => (ms / 1000 / TAKE_SECONDS).toFixed(4);
  console.log(
    `  real-time factor (p50 / ${TAKE_SECONDS} s): wall ${rtf(percentile(full.wall, 0.5))}, cpu ${rtf(percentile(full.cpu, 0.5))}`,
  );
  console.log('  goal: p50 ≤ 30 ms');
}

/** Wall and process CPU time (all threads: a pool worker's time counts) per run, sorted. */
async function timeAsync(n: number, fn: (i: number) => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < 10; i++) await fn(-1 - i);
  const wall: number[] = [];
  const cpu: number[] = [];
  const children: number[] = [];
  for (let i = 0; i < n; i++) {
    const c0 = process.cpuUsage();
    const k0 = childrenCpu();
    const t0 = performance.now();
    await fn(i);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    children.push(childrenCpu() - k0);
  }
  return {
    wall: wall.sort((x, y) => x - y),
    cpu: cpu.sort((x, y) => x - y),
    children: children.sort((x, y) => x - y),
  };
}

/** A pool job of a take against the actor's cached analysis, as both sections below hand it over. */
function poolJob(take: Float32Array, actor: Float32Array) {
  const record = toReferenceRecord(analyseReference(actor, RATE));
  const wav = new Uint8Array(encodeWav16(take, RATE));
  const meta = { takeId: 'bench', subtitlesId: 's', filmId: 'f', attempt: 1, audioUrl: '', createdAt: '' };
  const job = () => ({
    wav: wav.slice(),
    reference: { record },
    targetEmotion: null,
    speakerStats: null,
    meta,
  });
  return { wav, job };
}

/**
 * What the service adds around the job: handing it to a pool worker and back (ScoringPool, one job
 * at a time, so this is the round trip, not queueing), and storing the take (audio file + row +
 * the learner's running statistics, one transaction) on each engine.
 */
async function aroundTheJob(): Promise<void> {
  const { wav, job } = poolJob(
    threeSeconds('15a01Wa.wav', '15a02Wd.wav'),
    threeSeconds('15a01Nb.wav', '15a02La.wav'),
  );
  const N = 40;
  const pool = new ScoringPool(1);
  let result: Awaited<ReturnType<ScoringPool['run']>> | null = null;
  // Alternating, so both see the same machine.
  const direct: Timing = { wall: [], cpu: [] };
  const pooled: Timing = { wall: [], cpu: [] };
  for (let round = 0; round < 4; round++) {
    const d = await timeAsync(N / 4, async () => runScoreJob(job()));
    const p = await timeAsync(N / 4, async () => {
      result = await pool.run(job());
    });
    direct.wall.push(...d.wall);
    direct.cpu.push(...d.cpu);
    pooled.wall.push(...p.wall);
    pooled.cpu.push(...p.cpu);
  }
  for (const t of [direct, pooled]) {
    t.wall.sort((x, y) => x - y);
    t.cpu.sort((x, y) => x - y);
  }
  await pool.close();
  const sampleJob = job();
  const cloneJob = time(N, () => structuredClone(sampleJob));
  const cloneResult = time(N, () => structuredClone(result));
  console.log('');
  console.log(`Around the job (${N} runs each, one at a time; load average ${os.loadavg()[0].toFixed(1)}):`);
  console.log(`  the job in this thread:                                          ${row(direct)}`);
  console.log(`  the job through the worker pool (ScoringPool, 1 worker):         ${row(pooled)}`);
  console.log(
    `  pool round trip ≈ ${fmt(p50(pooled) - p50(direct))} wall, ${fmt(percentile(pooled.cpu, 0.5) - percentile(direct.cpu, 0.5))} CPU per take ` +
      `(p50 differences); of which copying the job ${fmt(p50(cloneJob))} and the result ${fmt(p50(cloneResult))} (structuredClone, as postMessage does)`,
  );
  const score = (result as unknown as { score: SpeechScore; features: number[] }).score;
  const features = (result as unknown as { features: number[] }).features;
  for (const engine of ['sqlite', 'postgres'] as const) {
    let server: Awaited<ReturnType<typeof startTestServer>>;
    try {
      server = await startTestServer({ engine, seedDemo: true });
    } catch (err) {
      console.log(`  store the take on ${engine}: skipped (${(err as Error).message.split('\n')[0]})`);
      continue;
    }
    try {
      const user = await server.app.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
      const audio = Buffer.from(wav);
      const run = await runForTake(server.app.db, user.id, 'f', undefined);
      const writes = await timeAsync(N, (i) =>
        storeTake(server.app.db, server.app.storage, {
          rowId: `bench-${i + 20}`,
          userId: user.id,
          filmId: 'f',
          runId: run.id,
          subtitleId: 's',
          attempt: 1,
          audio,
          score,
          features,
        }),
      );
      console.log(
        `  store the take on ${engine} (wav file + takes row + run + speaker statistics): ${row(writes)}`,
      );
    } finally {
      await server.close();
    }
  }
}

/** Real EmoDB fixture takes back to back, cut to exactly `seconds` (16 kHz mono). */
function takeOf(seconds: number, files: string[]): Float32Array {
  const out = new Float32Array(seconds * RATE);
  let at = 0;
  for (let k = 0; at < out.length; k++) {
    const x = toMono(decodeWav(new Uint8Array(fs.readFileSync(path.join(FIX, files[k % files.length])))));
    out.set(x.subarray(0, Math.min(x.length, out.length - at)), at);
    at += x.length;
  }
  return out;
}

/**
 * The word check beside the job, as scoreAndStore runs it: the job in the pool and the check of the
 * take at once, for a 4 s take; the growth of their p50 over the job alone is what the words add to
 * line end → score. Each language's engine answers as installed here (its answer is printed: an
 * engine that is not installed costs nothing, and the figure says so).
 */
async function wordsBeside(): Promise<void> {
  const SECONDS = 4;
  const { wav, job } = poolJob(
    takeOf(SECONDS, ['15a01Wa.wav', '15a02Wd.wav']),
    takeOf(SECONDS, ['15a01Nb.wav', '15a02La.wav']),
  );
  const log = {
    warn: (obj: object, msg: string) => console.log(`  (word check warned: ${msg} ${JSON.stringify(obj)})`),
  };
  const lines = {
    en: { subtitleId: 's', text: 'She wants to hand it in on Wednesday.', language: 'en', referenceKey: '' },
    zh: { subtitleId: 's', text: '她星期三要把它交上去。', language: 'zh', referenceKey: '' },
  };
  const N = 40;
  const pool = new ScoringPool(1);
  try {
    console.log('');
    console.log(
      `The word check beside the job (${SECONDS} s take, ${N} runs each, alternating; load average ${os.loadavg()[0].toFixed(1)}):`,
    );
    for (const [language, line] of Object.entries(lines)) {
      // The check alone: the take's 16 kHz samples from a pool worker, then the engine.
      const checkAlone = async () => {
        const audio = await pool.wordSamples({ wav: wav.slice() });
        if (!audio) throw new Error('the bench take has unusable samples');
        return checkLineWords(checkWords, line, audio, log);
      };
      // As scoreAndStore runs them: the job posts the take for the words before analysing it.
      const jobAndCheck = () => {
        const forWords = wordSamplesChannel();
        return Promise.all([
          pool.run({ ...job(), wordsPort: forWords.port }),
          forWords.samples.then((audio) => audio && checkLineWords(checkWords, line, audio, log)),
        ]);
      };
      const answer = await checkAlone();
      const alone: Timing = { wall: [], cpu: [] };
      const beside: Timing = { wall: [], cpu: [] };
      const check: Timing = { wall: [], cpu: [], children: [] };
      for (let round = 0; round < 4; round++) {
        const a = await timeAsync(N / 4, () => pool.run(job()));
        const b = await timeAsync(N / 4, jobAndCheck);
        const c = await timeAsync(N / 4, checkAlone);
        for (const [into, from] of [
          [alone, a],
          [beside, b],
          [check, c],
        ] as const) {
          into.wall.push(...from.wall);
          into.cpu.push(...from.cpu);
          into.children?.push(...(from.children ?? []));
        }
      }
      for (const t of [alone, beside, check]) {
        t.wall.sort((x, y) => x - y);
        t.cpu.sort((x, y) => x - y);
        t.children?.sort((x, y) => x - y);
      }
      const said = answer.status === 'checked' ? 'checked' : `unchecked: ${answer.reason}`;
      console.log(`  ${language} (engine answers "${said}"):`);
      console.log(`    the job alone (pool, 1 worker):                               ${row(alone)}`);
      console.log(`    the job and the word check at once (as scoreAndStore):        ${row(beside)}`);
      console.log(`    the word check alone (decode in the pool + checkWords):       ${row(check)}`);
      // The engine's own processes (English: the pocketsphinx runs) are not in this process's CPU;
      // their CPU is what the load of other work does not inflate much.
      const engine = check.children ?? [];
      console.log(
        `    its engine's child processes, CPU per check:                  p50 ${fmt(percentile(engine, 0.5))} p95 ${fmt(percentile(engine, 0.95))} (10 ms ticks)`,
      );
      console.log(
        `    line end → score grows by ${fmt(p50(beside) - p50(alone))} (p50); goal ≤ 150 ms; word check RTF ${(p50(check) / 1000 / SECONDS).toFixed(4)}; load average now ${os.loadavg()[0].toFixed(1)}`,
      );
    }
  } finally {
    await pool.close();
  }
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
  const profileDir = process.env.BENCH_PROFILE ? path.resolve(process.env.BENCH_PROFILE) : null;
  const workerDir = profileDir ? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ai-workers-')) : null;
  // Worker threads inherit --cpu-prof and each writes its own profile when the pool closes.
  const server = await startChild<{ url: string; token: string; workers: number }>(
    'bench/ai-server.ts',
    {},
    undefined,
    workerDir ? ['--cpu-prof', `--cpu-prof-dir=${workerDir}`] : [],
  );
  const ready = server.ready;
  const mainProfile = profileDir ? path.join(profileDir, 'ai-service-main.cpuprofile') : null;
  let served = 0;
  try {
    const wav = new Uint8Array(encodeWav16(threeSeconds('15a01Wa.wav', '15a02Wd.wav'), RATE));
    const { body, contentType } = multipartBody(wav);
    const url = `${ready.url}/ai/speech_emotion`;
    const headers = { token: ready.token, 'content-type': contentType };
    // Prime: the first request analyses and caches the actor's line and warms the workers.
    for (let i = 0; i < 4; i++) await fetch(url, { method: 'POST', headers, body });
    if (mainProfile) await server.command({ cmd: 'profile-start' });
    const result = await autocannon({ url, method: 'POST', headers, body, connections: 4, duration: 10 });
    if (mainProfile) await server.command({ cmd: 'profile-stop', file: mainProfile });
    served = result.requests.total;
    const ok2xx = result['2xx'];
    console.log('');
    console.log(
      `Service over loopback (${ready.workers} scoring workers, SQLite, 4 connections, 10 s, multipart ${(body.length / 1024).toFixed(0)} KiB; load average ${os.loadavg()[0].toFixed(1)}):`,
    );
    console.log(
      `  requests/s: ${result.requests.average.toFixed(1)} (2xx ${ok2xx}, non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`,
    );
    console.log(
      `  latency: p50 ${result.latency.p50} ms  p97.5 ${result.latency.p97_5} ms  p99 ${result.latency.p99} ms`,
    );
  } finally {
    await server.stop();
  }
  if (mainProfile && workerDir && profileDir) {
    const read = (f: string) => JSON.parse(fs.readFileSync(f, 'utf8')) as NodeCpuProfile;
    const main = read(mainProfile);
    console.log(
      formatSuspects(apiSuspects([main]), served, mainProfile).replace(
        'our server',
        'the service’s event loop',
      ),
    );
    // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile, one per thread: the scoring workers are the
    // threads that ran runScoreJob (the others are the main thread and tsx's module loader threads).
    // Only their samples taken while the load ran count (the threads share the profile clock).
    const kept = fs
      .readdirSync(workerDir)
      .map((f) => path.join(workerDir, f))
      .filter((f) => fs.readFileSync(f, 'utf8').includes('"runScoreJob"'))
      .map((f) => {
        const to = path.join(profileDir, `ai-worker-${path.basename(f)}`);
        fs.renameSync(f, to);
        return to;
      });
    fs.rmSync(workerDir, { recursive: true, force: true });
    const window = { from: main.startTime, to: main.endTime };
    console.log(formatJobProfile(summarise(kept.map(read), undefined, window), served, kept.length));
  }
}

/** The scoring workers' time while the load ran, by part of the job, and what is outside the job. */
function formatJobProfile(s: ReturnType<typeof summarise>, requests: number, threads: number): string {
  const busy = s.totalMs - (s.self.get('(idle)') ?? 0);
  const part = (name: string) =>
    [...s.inclusive].filter(([label]) => label.split(' ')[0] === name).reduce((t, [, ms]) => t + ms, 0);
  const job = part('runScoreJob');
  const rows: [string, number][] = [
    ['the job (runScoreJob)', job],
    ['  analyzeVoice', part('analyzeVoice')],
    ['  classifyEmotion (model)', part('classifyEmotion')],
    ['  buildSpeechScore', part('buildSpeechScore')],
    ['  decodeWav', part('decodeWav')],
    ['  deserializeAnalysis (cached actor)', part('deserializeAnalysis')],
    ['outside the job: pool messaging, GC between jobs', busy - job],
  ];
  return [
    `    CPU profiles of the ${threads} scoring workers while the load ran: ${busy.toFixed(0)} ms sampled, ` +
      `${(job / Math.max(1, requests)).toFixed(1)} ms of job per request (wall-clock samples: inflated by the machine's load)`,
    ...rows.map(
      ([label, ms]) =>
        `      ${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / busy).toFixed(1).padStart(5)} %  ${label}`,
    ),
  ].join('\n');
}

if (process.argv.includes('--words')) await wordsBeside();
else {
  inProcess();
  await aroundTheJob();
  await wordsBeside();
  await service();
}
