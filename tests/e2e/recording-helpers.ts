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
import { resample } from '../../src/audio/dsp/resample';
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

/** Serves a build with /producer and /ai proxied to `apiUrl`, as the real deployment's proxy does. */
export async function serveClient(
  outDir: string,
  apiUrl: string,
): Promise<{ origin: string; server: PreviewServer }> {
  const server = await preview({
    root: ROOT,
    logLevel: 'warn',
    build: { outDir },
    preview: {
      host: '127.0.0.1',
      port: 0,
      open: false,
      proxy: { '/producer': apiUrl, '/ai': apiUrl },
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
    fs.writeFileSync(copy, Buffer.from(encodeWav16(toMono(wav), wav.sampleRate)));
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
  fs.writeFileSync(out, Buffer.from(encodeWav16(all, rate)));
  return { path: out, built: true };
}

/** The mic file as the pipeline should deliver it: mono, 16 kHz. */
export function micAt16k(file: string): Float32Array {
  const wav = decodeWav(fs.readFileSync(file));
  return resample(toMono(wav), wav.sampleRate, TARGET_SAMPLE_RATE);
}

export async function login(apiUrl: string): Promise<string> {
  const res = await fetch(`${apiUrl}/producer/site_products/login_pwd`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ account: 'demo', password: 'demo123456' }),
  });
  const body = (await res.json()) as { code: number; msg: string; data: { token: string } };
  if (body.code !== 200) throw new Error(`demo login failed: ${body.code} ${body.msg}`);
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

export interface CapturedUpload {
  fields: Record<string, string>;
  fileName: string;
  wav: Uint8Array;
}

/** Splits a multipart/form-data body (what the browser sent) into its fields and the `file` part. */
export function parseMultipart(body: Buffer, contentType: string): CapturedUpload {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (!boundary) throw new Error(`no boundary in ${contentType}`);
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const fields: Record<string, string> = {};
  let fileName = '';
  let wav = new Uint8Array(0);
  let start = body.indexOf(delimiter);
  while (start >= 0) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next < 0) break;
    const part = body.subarray(start + delimiter.length + 2, next - 2); // skip CRLF after and before
    const headerEnd = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, headerEnd).toString('utf8');
    const content = part.subarray(headerEnd + 4);
    const name = /name="([^"]+)"/.exec(headers)?.[1] ?? '';
    const file = /filename="([^"]*)"/.exec(headers)?.[1];
    if (file !== undefined) {
      fileName = file;
      wav = new Uint8Array(content);
    } else fields[name] = content.toString('utf8');
    start = next;
  }
  return { fields, fileName, wav };
}

export interface Match {
  /** Offset of the upload's first sample in the (looping) mic file, 16 kHz samples. */
  offset: number;
  /** Normalised correlation of the whole upload at that offset, and of each quarter separately. */
  ncc: number;
  quarters: number[];
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
 * Where in the looping mic file an upload comes from: coarse search by FFT cross-correlation at
 * 4 kHz over the file laid twice (Chromium loops it), then the exact 16 kHz sample nearby.
 */
export function locate(upload: Float32Array, mic16k: Float32Array): Match {
  const L = mic16k.length;
  const coarseUp = resample(upload, 16000, 4000);
  const coarseMic = resample(mic16k, 16000, 4000);
  const Lc = coarseMic.length;
  let size = 2;
  while (size < 2 * Lc + coarseUp.length) size *= 2;
  const fft = fftOfSize(size);
  const mRe = new Float64Array(size);
  const mIm = new Float64Array(size);
  for (let i = 0; i < 2 * Lc; i++) mRe[i] = coarseMic[i % Lc];
  fft.transform(mRe, mIm);
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
  let best = 0;
  for (let k = 1; k < Lc; k++) if (mRe[k] > mRe[best]) best = k;
  const at = (offset: number) => (i: number) => mic16k[(((offset + i) % L) + L) % L];
  let offset = best * 4;
  let bestScore = -2;
  for (let d = -12; d <= 12; d++) {
    const score = ncc(upload, at(best * 4 + d), 0, upload.length);
    if (score > bestScore) {
      bestScore = score;
      offset = (((best * 4 + d) % L) + L) % L;
    }
  }
  const q = Math.floor(upload.length / 4);
  const quarters = [0, 1, 2, 3].map((k) => ncc(upload, at(offset), k * q, (k + 1) * q));
  return { offset, ncc: bestScore, quarters };
}
