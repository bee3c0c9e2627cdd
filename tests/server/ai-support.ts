import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { encodeWav16 } from '../../src/audio/dsp/wav';
import type { AnyEnvelope } from './support/http';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/emodb');

/** A real EmoDB take committed as a test fixture (16 kHz mono 16-bit). */
export const fixtureWav = (name: string): Uint8Array =>
  new Uint8Array(fs.readFileSync(path.join(FIXTURES, name)));

export const AI_FILM = 'ai-film';
/** Line 1: annotated anger, actor = an angry take. Line 2: no annotation, actor neutral. Line 3: no audio. */
export const LINES = { angry: 'ai-film-1', neutral: 'ai-film-2', noReference: 'ai-film-3' } as const;

/** Inserts a prpt film with three lines and puts the actors' reference wavs in storage. */
export async function seedAiFilm(app: FastifyInstance): Promise<void> {
  const now = new Date().toISOString();
  const l = (zh: string, en: string) => JSON.stringify({ zh, en });
  await app.db
    .insertInto('films')
    .values({
      id: AI_FILM,
      title: '评分测试',
      title_en: 'Scoring test',
      synopsis: l('测试', 'Test'),
      parts: JSON.stringify(['prpt']),
      roles: '[]',
      poster_key: 'films/ai-film/poster.jpg',
      video_key: 'films/ai-film/video.mp4',
      track_key: 'films/ai-film/track.vtt',
      background_key: null,
      duration_ms: 10_000,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const line = (idx: number, text: string, target: string | null, key: string) => ({
    id: `${AI_FILM}-${idx}`,
    film_id: AI_FILM,
    idx,
    start_ms: idx * 2000,
    end_ms: idx * 2000 + 1800,
    text,
    translation: l(text, text),
    speaker: 'A',
    target_emotion: target,
    reference_audio_key: key,
  });
  await app.db
    .insertInto('subtitles')
    .values([
      line(1, 'Das will sie am Mittwoch abgeben.', 'anger', 'films/ai-film/lines/1.wav'),
      line(2, 'Der Lappen liegt auf dem Eisschrank.', null, 'films/ai-film/lines/2.wav'),
      line(3, 'In sieben Stunden wird es soweit sein.', null, 'films/ai-film/lines/3.wav'),
    ])
    .execute();
  await app.storage.put('films/ai-film/lines/1.wav', Buffer.from(fixtureWav('15a02Wd.wav')));
  await app.storage.put('films/ai-film/lines/2.wav', Buffer.from(fixtureWav('15a01Nb.wav')));
  // Line 3's reference is deliberately missing from storage.
}

/**
 * Runs `fn` with the line's reference audio gone from storage, so only a cache can answer for the
 * actor; the audio is put back afterwards, whatever `fn` did.
 */
export async function withoutReferenceAudio<T>(
  app: FastifyInstance,
  lineId: string,
  fn: () => Promise<T>,
): Promise<T> {
  const line = await app.db
    .selectFrom('subtitles')
    .select('reference_audio_key')
    .where('id', '=', lineId)
    .executeTakeFirstOrThrow();
  const audio = await app.storage.get(line.reference_audio_key);
  await app.storage.delete(line.reference_audio_key);
  try {
    return await fn();
  } finally {
    await app.storage.put(line.reference_audio_key, audio);
  }
}

export interface TakeForm {
  file?: Uint8Array | null;
  filename?: string;
  subtitlesId?: string;
  filmId?: string;
  attempt?: string;
  takeId?: string;
  runId?: string;
}

/** Posts a take as the web client does: multipart, wav in `file`, the line's fields beside it. */
export async function postTake(
  baseUrl: string,
  token: string | null,
  form: TakeForm,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: AnyEnvelope }> {
  const data = new FormData();
  data.set('subtitlesId', form.subtitlesId ?? LINES.angry);
  data.set('filmId', form.filmId ?? AI_FILM);
  data.set('attempt', form.attempt ?? '1');
  if (form.takeId) data.set('takeId', form.takeId);
  if (form.runId) data.set('runId', form.runId);
  if (form.file !== null) {
    const bytes = form.file ?? fixtureWav('15a01Wa.wav');
    data.set(
      'file',
      new Blob([bytes], { type: 'audio/wav' }),
      form.filename ?? `${form.subtitlesId ?? LINES.angry}.wav`,
    );
  }
  const res = await fetch(`${baseUrl}/ai/speech_emotion`, {
    method: 'POST',
    headers: token ? { ...headers, token } : headers,
    body: data,
  });
  return { status: res.status, body: (await res.json()) as AnyEnvelope };
}

/** A wav header + data with any format fields, for the rejection cases. */
export function rawWav(opts: {
  tag?: number;
  bits?: number;
  channels?: number;
  rate?: number;
  seconds?: number;
}): Uint8Array {
  const tag = opts.tag ?? 1;
  const bits = opts.bits ?? 16;
  const channels = opts.channels ?? 1;
  const rate = opts.rate ?? 16_000;
  const frames = Math.round((opts.seconds ?? 1) * rate);
  const blockAlign = (bits / 8) * channels;
  const dataBytes = frames * blockAlign;
  const buf = new ArrayBuffer(44 + dataBytes);
  const v = new DataView(buf);
  const ascii = (o: number, s: string) => {
    for (let i = 0; i < s.length; i++) v.setUint8(o + i, s.charCodeAt(i));
  };
  ascii(0, 'RIFF');
  v.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, tag, true);
  v.setUint16(22, channels, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * blockAlign, true);
  v.setUint16(32, blockAlign, true);
  v.setUint16(34, bits, true);
  ascii(36, 'data');
  v.setUint32(40, dataBytes, true);
  // A quiet 200 Hz tone so accepted variants carry something.
  if (tag === 3 && bits === 32) {
    for (let i = 0; i < frames; i++)
      for (let c = 0; c < channels; c++)
        v.setFloat32(44 + (i * channels + c) * 4, 0.1 * Math.sin((2 * Math.PI * 200 * i) / rate), true);
  }
  return new Uint8Array(buf);
}

/** The fixture take re-encoded as 32-bit float stereo (accepted and mixed down). */
export function floatStereoFrom(mono16: Uint8Array): Uint8Array {
  const v = new DataView(mono16.buffer, mono16.byteOffset, mono16.byteLength);
  const frames = (mono16.byteLength - 44) / 2;
  const out = rawWav({
    tag: 3,
    bits: 32,
    channels: 2,
    rate: v.getUint32(24, true),
    seconds: frames / v.getUint32(24, true),
  });
  const o = new DataView(out.buffer);
  for (let i = 0; i < frames; i++) {
    const s = v.getInt16(44 + i * 2, true) / 32768;
    o.setFloat32(44 + i * 8, s, true);
    o.setFloat32(44 + i * 8 + 4, s, true);
  }
  return out;
}

/** Silence of the given length as 16-bit PCM. */
export const silentWav = (seconds: number, rate = 16_000): Uint8Array =>
  new Uint8Array(encodeWav16(new Float32Array(Math.round(seconds * rate)), rate));
