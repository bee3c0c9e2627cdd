/**
 * Shared by the recording e2e tests and bench/pipeline.ts: a production build of the client served
 * with its API proxied to a real test server, a microphone wav for Chromium's fake capture device,
 * a login, multipart parsing of captured uploads, and correlation of an upload against the mic file.
 */
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build, type PreviewServer, preview } from 'vite';
import { TARGET_SAMPLE_RATE } from '../../src/audio/constants';
import { fftOfSize } from '../../src/audio/analysis/fft';
import { resample, StreamingResampler } from '../../src/audio/dsp/resample';
import { decodeWav, encodeWav16, toMono } from '../../src/audio/dsp/wav';

const ROOT = path.resolve(import.meta.dirname, '../..');

export const FAKE_MIC_ARGS = (wav: string) => [
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  `--use-file-for-fake-audio-capture=${wav}`,
  '--autoplay-policy=no-user-gesture-required',
];

/** Builds the client once into a temporary folder. */
export async function buildClient(): Promise<{ outDir: string; remove: () => Promise<void> }> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'rec-build-'));
  await build({ root: ROOT, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  return { outDir, remove: () => rm(outDir, { recursive: true, force: true }) };
}

/**
 * Serves a build with /producer proxied to `apiUrl` and /ai to `aiUrl` (default: the same server), as
 * the real deployment's proxy does.
 */
export async function serveClient(
  outDir: string,
  apiUrl: string,
  aiUrl = apiUrl,
): Promise<{ origin: string; server: PreviewServer }> {
  const server = await preview({
    root: ROOT,
    logLevel: 'warn',
    build: { outDir },
    preview: {
      host: '127.0.0.1',
      port: 0,
      open: false,
      proxy: { '/producer': apiUrl, '/ai': aiUrl },
    },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview did not report a local URL');
  return { origin: url.replace(/\/$/, ''), server };
}

/**
 * The microphone file. Prefers the demo-content fixture (a learner's scene take); if the fixtures
 * are not there, builds one from the EmoDB copy: utterances with their zero padding trimmed, joined
 * with faint deterministic room tone so every stretch of the file is unique (needed to locate an
 * upload in it by correlation).
 */
export function micFixture(): { path: string; built: boolean } {
  const fixture = path.join(ROOT, 'tests/fixtures/mic/rag-on-the-fridge-take.wav');
  if (fs.existsSync(fixture)) {
    // The fixture is written by a streaming encoder (RIFF and data sizes 0xFFFFFFFF); Chromium's wav
    // reader wants real sizes, so hand it a copy with a canonical header and the same samples.
    const wav = decodeWav(fs.readFileSync(fixture));
    const copy = path.join(os.tmpdir(), 'rec-mic-fixture.wav');
    writeWhole(copy, Buffer.from(encodeWav16(toMono(wav), wav.sampleRate)));
    return { path: copy, built: false };
  }
  const dir = path.join(ROOT, '../shared/datasets/emodb/wav');
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.wav'))
    .sort()
    .slice(0, 40);
  const parts: Float32Array[] = [];
  let seed = 12345;
  const tone = (n: number) => {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      out[i] = ((seed / 0x7fffffff) * 2 - 1) * 0.003;
    }
    return out;
  };
  let rate = 0;
  for (const f of files) {
    const wav = decodeWav(fs.readFileSync(path.join(dir, f)));
    rate = wav.sampleRate;
    const x = toMono(wav);
    let end = x.length;
    while (end > 0 && x[end - 1] === 0) end--;
    parts.push(x.slice(0, end), tone(Math.round(rate * 0.3)));
  }
  const total = parts.reduce((n, p) => n + p.length, 0);
  const all = new Float32Array(total);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  const out = path.join(os.tmpdir(), 'rec-mic-emodb.wav');
  writeWhole(out, Buffer.from(encodeWav16(all, rate)));
  return { path: out, built: true };
}

/**
 * Writes `file` so that no reader ever sees it part-written: a copy beside it, renamed over it. The
 * microphone files live in the machine's temporary folder, shared by every test run on the machine:
 * a WebKitGTK journey's paplay once opened the file while another run was writing it ("Failed to open
 * audio file"). A reader that opened the old file keeps it, with the same samples.
 */
export function writeWhole(file: string, data: Buffer): void {
  const part = `${file}.${process.pid}.part`;
  fs.writeFileSync(part, data);
  fs.renameSync(part, file);
}

/** The mic file as the pipeline should deliver it: mono, 16 kHz. */
export function micAt16k(file: string): Float32Array {
  const wav = decodeWav(fs.readFileSync(file));
  return resample(toMono(wav), wav.sampleRate, TARGET_SAMPLE_RATE);
}

export async function login(apiUrl: string, account = 'demo', password = 'demo123456'): Promise<string> {
  const res = await fetch(`${apiUrl}/producer/site_products/login_pwd`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ account, password }),
  });
  const body = (await res.json()) as { code: number; msg: string; data: { token: string } };
  if (body.code !== 200) throw new Error(`${account} login failed: ${body.code} ${body.msg}`);
  return body.data.token;
}

export interface FilmLines {
  id: string;
  lines: { id: string; startTime: string; endTime: string }[];
}

export async function prptFilm(apiUrl: string, token: string, title: string): Promise<FilmLines> {
  const list = (await (
    await fetch(`${apiUrl}/producer/active_relation_two/show_film_picture?page=1&pageSize=50`, {
      headers: { token },
    })
  ).json()) as { data: { list: { id: string; titleEn: string }[] } };
  const film = list.data.list.find((f) => f.titleEn === title);
  if (!film) throw new Error(`demo film ${title} not imported`);
  const detail = (await (
    await fetch(`${apiUrl}/producer/active_relation_two/get_film_info`, {
      method: 'POST',
      headers: { token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: film.id }),
    })
  ).json()) as { data: { subtitlesList: FilmLines['lines'] } };
  return { id: film.id, lines: detail.data.subtitlesList };
}

export interface Match {
  /** Offset of the upload's first sample in the recording, in samples at the rate searched. */
  offset: number;
  /** Normalised correlation of the whole upload at that offset. */
  ncc: number;
}

function ncc(a: Float32Array, b: (i: number) => number, from: number, to: number): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = from; i < to; i++) {
    const y = b(i);
    ab += a[i] * y;
    aa += a[i] * a[i];
    bb += y * y;
  }
  return ab / Math.sqrt(aa * bb || 1);
}

/**
 * The searched signal's side of `locate`, computed once per signal: followFile relocates against the
 * same file many times when the fake device glitches, and redoing the file's resampling and FFT each
 * time made one glitchy scene take cost minutes. Returns fresh copies (the caller works in place).
 */
const spectraCache = new WeakMap<
  Float32Array,
  Map<string, { coarse: Float32Array; spectra: Map<number, [Float64Array, Float64Array]> }>
>();
function micSpectra(mic: Float32Array, rate: number, circular: boolean) {
  let byKey = spectraCache.get(mic);
  if (!byKey) {
    byKey = new Map();
    spectraCache.set(mic, byKey);
  }
  const key = `${rate}:${circular}`;
  let entry = byKey.get(key);
  if (!entry) {
    entry = { coarse: resample(mic, rate, 4000), spectra: new Map() };
    byKey.set(key, entry);
  }
  const { coarse, spectra } = entry;
  const spectrum = (size: number): [Float64Array, Float64Array] => {
    let pair = spectra.get(size);
    if (!pair) {
      const re = new Float64Array(size);
      const im = new Float64Array(size);
      const Lc = coarse.length;
      for (let i = 0; i < (circular ? 2 : 1) * Lc; i++) re[i] = coarse[i % Lc];
      fftOfSize(size).transform(re, im);
      pair = [re, im];
      spectra.set(size, pair);
    }
    return [pair[0].slice(), pair[1].slice()];
  };
  return { coarse, spectrum };
}

/**
 * Where in a recording an upload comes from: coarse search by FFT cross-correlation at 4 kHz (over
 * the file laid twice when `circular`, as Chromium loops it), then the exact sample nearby (at `rate`).
 */
export function locate(
  upload: Float32Array,
  mic16k: Float32Array,
  rate = TARGET_SAMPLE_RATE,
  circular = true,
): Match {
  const f = rate / 4000;
  const L = mic16k.length;
  const coarseUp = resample(upload, rate, 4000);
  const { coarse: coarseMic, spectrum } = micSpectra(mic16k, rate, circular);
  const Lc = coarseMic.length;
  let size = 2;
  while (size < 2 * Lc + coarseUp.length) size *= 2;
  const fft = fftOfSize(size);
  const [mRe, mIm] = spectrum(size);
  const uRe = new Float64Array(size);
  const uIm = new Float64Array(size);
  uRe.set(coarseUp);
  fft.transform(uRe, uIm);
  // corr[k] = Σ u[i] m[i + k]  ⇔  IFFT(M · conj(U))
  for (let i = 0; i < size; i++) {
    const re = mRe[i] * uRe[i] + mIm[i] * uIm[i];
    const im = mIm[i] * uRe[i] - mRe[i] * uIm[i];
    mRe[i] = re;
    mIm[i] = im;
  }
  fft.transform(mRe, mIm, true);
  // A recording that repeats (the looping file, or a stream holding it twice) has several good places:
  // refine the five best coarse peaks, at least 50 ms apart, and keep the best correlation.
  const last = circular ? Lc - 1 : Math.max(0, Lc - coarseUp.length);
  const peaks: number[] = [];
  for (let k = 0; k <= last; k++) {
    if (k > 0 && mRe[k] < mRe[k - 1]) continue;
    if (k < last && mRe[k] < mRe[k + 1]) continue;
    peaks.push(k);
  }
  peaks.sort((a, b) => mRe[b] - mRe[a]);
  const chosen: number[] = [];
  for (const k of peaks) {
    if (chosen.length === 5) break;
    if (chosen.every((c) => Math.abs(c - k) >= 200)) chosen.push(k);
  }
  const at = (offset: number) => (i: number) => mic16k[(((offset + i) % L) + L) % L];
  let offset = 0;
  let bestScore = -2;
  for (const k of chosen) {
    for (let d = -3 * f; d <= 3 * f; d++) {
      const o = k * f + d;
      if (!circular && (o < 0 || o + upload.length > L)) continue;
      const score = ncc(upload, at(o), 0, upload.length);
      if (score > bestScore) {
        bestScore = score;
        offset = ((o % L) + L) % L;
      }
    }
  }
  return { offset, ncc: bestScore };
}

/**
 * Test instrumentation injected into the page before the app loads (`context.addInitScript`). It
 * records what the browser's audio graph actually received from the microphone, independently of
 * the app: every `createMediaStreamSource` also feeds a small AudioWorklet tap (mono, like the app's
 * capture node) that posts what it receives with the frame number of its first sample. The tap is the ground truth for
 * "our pipeline lost nothing": Chromium's file-backed fake microphone itself glitches (it is driven
 * by a timer; see docs/architecture.md), so the file alone cannot be.
 */
export const CAPTURE_TAP_SCRIPT = `(() => {
  const TAP = 'test-capture-tap';
  // Batches of 1024 frames keep the page's message load small; 'flush' hands over the partial batch.
  const code = 'class Tap extends AudioWorkletProcessor {' +
    ' constructor() { super(); this.buf = new Float32Array(1024); this.fill = 0; this.start = 0; this.next = -1;' +
    '  this.port.onmessage = () => { this.flush(); this.port.postMessage({ flushed: true }); }; }' +
    ' flush() { if (this.fill) this.port.postMessage({ frame: this.start, data: this.buf.slice(0, this.fill) }); this.fill = 0; }' +
    ' process(inputs) { const ch = inputs[0] && inputs[0][0]; if (!ch) return true;' +
    '  if (currentFrame !== this.next || this.fill + ch.length > this.buf.length) { this.flush(); this.start = currentFrame; }' +
    '  this.buf.set(ch, this.fill); this.fill += ch.length; this.next = currentFrame + ch.length; return true; } }' +
    ' registerProcessor("' + TAP + '", Tap);';
  const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
  const taps = [];
  window.__captureTaps = taps;
  const create = AudioContext.prototype.createMediaStreamSource;
  AudioContext.prototype.createMediaStreamSource = function (stream) {
    const source = create.call(this, stream);
    const ctx = this;
    const tap = { rate: ctx.sampleRate, segments: [], node: null, context: ctx };
    taps.push(tap);
    ctx.audioWorklet.addModule(url).then(() => {
      const node = new AudioWorkletNode(ctx, TAP, { channelCount: 1, channelCountMode: 'explicit' });
      node.port.onmessage = (e) => {
        if (e.data.flushed) tap.onFlushed?.();
        else tap.segments.push(e.data);
      };
      tap.node = node;
      const mute = ctx.createGain();
      mute.gain.value = 0;
      source.connect(node);
      node.connect(mute);
      mute.connect(ctx.destination);
    });
    return source;
  };
  const flush = (t) => new Promise((resolve) => {
    if (!t.node || t.context.state === 'closed') return resolve();
    const timer = setTimeout(resolve, 500);
    t.onFlushed = () => { clearTimeout(timer); resolve(); };
    t.node.port.postMessage('flush');
  });
  // The app closes its AudioContext after a take: hand over the tap's partial batch first.
  const close = AudioContext.prototype.close;
  AudioContext.prototype.close = async function () {
    const tap = taps.find((t) => t.context === this);
    if (tap) await flush(tap);
    return close.call(this);
  };
  window.__readCaptureTaps = async () => (await Promise.all(taps.map(flush)), taps).map((t) => ({
    rate: t.rate,
    segments: t.segments.map((s) => {
      const bytes = new Uint8Array(s.data.buffer);
      let bin = '';
      for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
      return { frame: s.frame, b64: btoa(bin) };
    }),
  }));
})();`;

/** What one AudioContext received from the microphone, laid out by frame number. */
export interface CaptureTap {
  rate: number;
  /** Frame number of `samples[0]`. */
  firstFrame: number;
  samples: Float32Array;
}

export async function readCaptureTaps(page: import('playwright-core').Page): Promise<CaptureTap[]> {
  const raw = await page.evaluate<{ rate: number; segments: { frame: number; b64: string }[] }[]>(
    'window.__readCaptureTaps()',
  );
  return raw
    .filter((t) => t.segments.length > 0)
    .map((t) => {
      const segments = t.segments.map((s) => {
        const b = Buffer.from(s.b64, 'base64');
        return { frame: s.frame, data: new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4) };
      });
      const firstFrame = segments[0].frame;
      const last = segments[segments.length - 1];
      const samples = new Float32Array(last.frame + last.data.length - firstFrame);
      for (const s of segments) samples.set(s.data, s.frame - firstFrame);
      return { rate: t.rate, firstFrame, samples };
    });
}

/** Where an upload sits in what the browser delivered, and how exactly it matches there. */
export interface TapMatch {
  /** Index of the tap (one per AudioContext the page opened on the microphone). */
  tap: number;
  /** First sample of the upload in the tap's audio, counted at 16 kHz from the tap's first frame. */
  offset: number;
  ncc: number;
  /** Largest difference from the delivered audio, in 16-bit steps, and where it is (upload seconds). */
  maxErrorLsb: number;
  maxErrorAt: number;
  /** Samples more than two 16-bit steps off, and the stretches they form (upload seconds). */
  offSamples: number;
  offStretches: [number, number][];
}

const INT16_MAX = 32767 / 32768;
const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

/**
 * Finds an upload in the microphone audio the browser delivered, and checks it sample by sample.
 *
 * The app resamples each take from its first captured frame F0, so its 16 kHz samples sit at capture
 * positions F0 + k·r (r = rate / 16000). Resampling the delivered audio from frame s puts samples on
 * the same grid exactly when s ≡ F0 (mod P), P = rate / gcd(rate, 16000) (441 at 44.1 kHz, 3 at
 * 48 kHz). F0 is not known here, so all P residues are tried on a short probe around the upload's
 * coarse position; on the right one, an upload that lost or repeated nothing equals the delivered
 * audio to within 16-bit rounding.
 */
/** How far from where it was expected an upload is looked for, when told (DeliveredAudio.match). */
const SEARCH_AROUND_SECONDS = 2;

export class DeliveredAudio {
  private readonly coarse: Float32Array[];

  constructor(readonly taps: CaptureTap[]) {
    this.coarse = taps.map((t) => resample(t.samples, t.rate, TARGET_SAMPLE_RATE));
  }

  /** Tap `tap` at 16 kHz from its first frame (on its own grid, not the app's). */
  stream(tap: number): Float32Array {
    return this.coarse[tap];
  }

  /** Why the last `match` found nothing (for the failure message). */
  miss = '';

  /**
   * `around`: where the upload should start (16 kHz samples from the tap's first frame); it is looked
   * for within SEARCH_AROUND_SECONDS of there only. A take longer than the looping microphone file
   * holds some of its sound twice, and each copy matches exactly.
   */
  match(upload: Float32Array, around?: number): TapMatch | null {
    let best: TapMatch | null = null;
    const misses: string[] = [];
    this.taps.forEach((t, tap) => {
      const coarse = this.coarse[tap];
      if (coarse.length < upload.length) {
        misses.push(`tap ${tap} shorter than the upload`);
        return;
      }
      const r = t.rate / TARGET_SAMPLE_RATE;
      const period = t.rate / gcd(t.rate, TARGET_SAMPLE_RATE);
      const warm = new StreamingResampler(t.rate, TARGET_SAMPLE_RATE).taps;
      const lo =
        around === undefined
          ? 0
          : Math.max(0, Math.round(around - SEARCH_AROUND_SECONDS * TARGET_SAMPLE_RATE));
      const hi =
        around === undefined
          ? coarse.length
          : Math.min(
              coarse.length,
              Math.round(around + (SEARCH_AROUND_SECONDS * TARGET_SAMPLE_RATE + upload.length)),
            );
      if (hi - lo < upload.length) {
        misses.push(`tap ${tap} ends before ${around}`);
        return;
      }
      const near = lo + locate(upload, coarse.subarray(lo, hi), TARGET_SAMPLE_RATE, false).offset;
      const at = (first: number, count: number): Float32Array => {
        const from = Math.max(0, first);
        return resample(t.samples.subarray(from, Math.min(t.samples.length, from + count)), t.rate, 16000);
      };
      // The grid is decided on a loud 100 ms probe (quiet stretches hardly tell phases apart), one per
      // quarter of the upload, so that a stretch the fallback path corrupted cannot decide it alone; the
      // grid under which most of the upload is exact wins.
      const probeLength = Math.min(upload.length, 1600);
      const quarter = Math.max(1, Math.floor((upload.length - probeLength) / 4));
      const probes: number[] = [];
      for (let q = 0; q < 4; q++) {
        let probeAt = -1;
        let loudest = -1;
        for (let p = q * quarter; p < (q + 1) * quarter && p + probeLength <= upload.length; p += 400) {
          let e = 0;
          for (let i = p; i < p + probeLength; i++) e += upload[i] * upload[i];
          if (e > loudest) {
            loudest = e;
            probeAt = p;
          }
        }
        if (probeAt >= 0 && !probes.includes(probeAt)) probes.push(probeAt);
      }
      for (const probeAt of probes) {
        // Capture position of the probe's first sample, give or take a sample of the coarse stream.
        const probeFrame = (near + probeAt) * r;
        // Grid: resampling from frame `start` puts upload[0] at output index `lead` (may be negative).
        let grid = { start: 0, lead: 0, ncc: -2 };
        for (let k = 0; k < period; k++) {
          const start = Math.floor(probeFrame) - warm - period + k;
          if (start < 0) continue;
          const x = at(start, warm + period + Math.ceil(probeLength * r) + 2 * warm);
          const j0 = Math.round((probeFrame - start) / r);
          for (let j = j0 - 3; j <= j0 + 3; j++) {
            if (j < 0 || j + probeLength > x.length) continue;
            const score = ncc(
              upload.subarray(probeAt, probeAt + probeLength),
              (i) => x[j + i],
              0,
              probeLength,
            );
            if (score > grid.ncc) grid = { start, lead: j - probeAt, ncc: score };
          }
        }
        // The whole upload on that grid, resampled from whole grid periods earlier so the filter is warm.
        const firstFrame = grid.start + grid.lead * r;
        const m = Math.ceil((grid.start - (firstFrame - warm)) / period);
        const from = grid.start - m * period;
        if (from < 0) {
          misses.push(`tap ${tap}: upload would start before the tap (near ${near})`);
          continue;
        }
        const x = at(from, Math.ceil(firstFrame - from + upload.length * r) + 2 * warm);
        const j = m * (TARGET_SAMPLE_RATE / gcd(t.rate, TARGET_SAMPLE_RATE)) + grid.lead;
        if (j < 0 || j + upload.length > x.length) {
          misses.push(
            `tap ${tap}: upload at ${j} + ${upload.length} outside ${x.length} (near ${near} of ${coarse.length})`,
          );
          continue;
        }
        let maxError = 0;
        let maxErrorAt = 0;
        let offSamples = 0;
        const offStretches: [number, number][] = [];
        for (let i = 0; i < upload.length; i++) {
          // A 16-bit wav holds nothing beyond full scale: the delivered audio can (resampling overshoot).
          const ref = Math.min(INT16_MAX, Math.max(-1, x[j + i]));
          const error = Math.abs(upload[i] - ref) * 32768;
          if (error > 2) {
            offSamples++;
            const last = offStretches[offStretches.length - 1];
            if (last && i - last[1] < 160) last[1] = i;
            else offStretches.push([i, i]);
          }
          if (error > maxError) {
            maxError = error;
            maxErrorAt = i / TARGET_SAMPLE_RATE;
          }
        }
        const score = ncc(upload, (i) => x[j + i], 0, upload.length);
        if (!best || offSamples < best.offSamples || (offSamples === best.offSamples && score > best.ncc)) {
          best = {
            tap,
            offset: firstFrame / r,
            ncc: score,
            maxErrorLsb: maxError,
            maxErrorAt,
            offSamples,
            offStretches: offStretches.map(([a, b]) => [
              a / TARGET_SAMPLE_RATE,
              (b + 1) / TARGET_SAMPLE_RATE,
            ]),
          };
        }
      }
    });
    this.miss = misses.join('; ');
    return best;
  }
}

/** How closely the delivered audio follows the microphone file, in 50 ms blocks. */
export interface FileFollow {
  /** Blocks with sound in them (quieter ones cannot be placed reliably and are not counted). */
  blocks: number;
  /** Of those, blocks found in the file at the expected place (correlation > 0.9). */
  matched: number;
  /** Places where the delivered audio jumps in the file: Chromium's fake device inserting or losing audio. */
  jumps: { atSeconds: number; ms: number }[];
}

/**
 * Follows a 16 kHz stream through the (looping) microphone file block by block: each block is looked
 * for where the previous one was found, then nearby (±50 ms), then anywhere in the file. Both are
 * compared below 5 kHz (resampled to 12 kHz), where every resampler on the way is flat: Chromium's
 * from the file's rate to the audio graph's, the app's down to 16 kHz.
 */
const micAt12k = new WeakMap<Float32Array, Float32Array>();

export function followFile(x16k: Float32Array, mic16k: Float32Array): FileFollow {
  const RATE = 12000;
  const x = resample(x16k, TARGET_SAMPLE_RATE, RATE);
  let mic = micAt12k.get(mic16k);
  if (!mic) {
    mic = resample(mic16k, TARGET_SAMPLE_RATE, RATE);
    micAt12k.set(mic16k, mic);
  }
  const B = RATE / 20;
  const L = mic.length;
  const at = (o: number) => mic[((o % L) + L) % L];
  const result: FileFollow = { blocks: 0, matched: 0, jumps: [] };
  let offset: number | null = null; // file position of x[0] implied by the last placed block
  for (let b = 0; b + B <= x.length; b += B) {
    let energy = 0;
    for (let i = b; i < b + B; i++) energy += x[i] * x[i];
    if (energy / B < 10 ** (-50 / 10)) continue;
    result.blocks++;
    const block = x.subarray(b, b + B);
    // The file and the delivered audio are rarely a whole number of samples apart (Chromium resamples the
    // file, and its loop point shifts it by a fraction): take the correlation's peak between samples.
    const raw = (o: number) => ncc(block, (i) => at(o + b + i), 0, B);
    const score = (o: number) => {
      const [l, c, r] = [raw(o - 1), raw(o), raw(o + 1)];
      const curve = 2 * c - l - r;
      return curve > 0 && c >= l && c >= r ? Math.min(1, c + (l - r) ** 2 / (8 * curve)) : c;
    };
    // The best offset in [lo, hi]: each correlation computed once, the peak refined between samples.
    const scan = (lo: number, hi: number) => {
      const r = new Float64Array(hi - lo + 1);
      let k = 0;
      for (let o = lo; o <= hi; o++) {
        r[o - lo] = raw(o);
        if (r[o - lo] > r[k]) k = o - lo;
      }
      const c = r[k];
      const l = k > 0 ? r[k - 1] : raw(lo - 1);
      const rr = k < r.length - 1 ? r[k + 1] : raw(hi + 1);
      const curve = 2 * c - l - rr;
      return { o: lo + k, s: curve > 0 ? Math.min(1, c + (l - rr) ** 2 / (8 * curve)) : c };
    };
    let bestO: number = offset ?? 0;
    let bestS = offset === null ? -2 : score(offset);
    if (bestS <= 0.95 && offset !== null) {
      const near = scan(offset - B, offset + B);
      if (near.s > bestS) ({ o: bestO, s: bestS } = near);
    }
    if (bestS <= 0.9) {
      // Lost (or just starting): place a second of context around the block anywhere in the file.
      const from = Math.max(0, Math.min(b, x.length - RATE));
      const o = locate(x.subarray(from, from + RATE), mic, RATE).offset - from;
      const found = scan(o - B, o + B);
      if (found.s > bestS) ({ o: bestO, s: bestS } = found);
    }
    if (bestS <= 0.9) continue;
    result.matched++;
    if (offset !== null) {
      const d = (((bestO - offset) % L) + L) % L;
      const ms = ((d > L / 2 ? d - L : d) / RATE) * 1000;
      // A sample either way is the file's own resampling, not a jump.
      if (Math.abs(ms) >= 1) result.jumps.push({ atSeconds: b / RATE, ms });
    }
    offset = bestO;
  }
  return result;
}

/** Chromium's arguments for the fake microphone playing {@link micFixture}'s wav (built on first use). */
export const fakeMicArgs = (): string[] => FAKE_MIC_ARGS(micFixture().path);
