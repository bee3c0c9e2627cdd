import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Code, type Emotion, emotion, speechEmotionFields } from '../../src/api/contract';
import { AppError, notFound } from '../lib/app-error';
import { nowIso } from '../lib/ids';
import { ok } from '../lib/reply';
import { validate } from '../lib/validate';
import { currentUser } from '../plugins/auth';
import { checkTakeWav, MAX_TAKE_BYTES } from './audio-check';
import type { ScoringPool } from './pool';
import { cacheReference, loadReference } from './reference';
import { findStoredTake, loadSpeakerStats, storeTake, takeAudioKey, takeRowId } from './takes';

interface Upload {
  fields: Record<string, string>;
  file: Buffer | null;
}

/** Reads the multipart form: text fields and the one `file` part, within the take size limit. */
async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new AppError(
      Code.UNSUPPORTED_MEDIA,
      '请用 multipart/form-data 上传录音（字段 file）(send multipart/form-data with a file field)',
    );
  }
  const fields: Record<string, string> = {};
  let file: Buffer | null = null;
  const parts = request.parts({
    limits: { fileSize: MAX_TAKE_BYTES, files: 1, fields: 10, fieldSize: 1024 },
  });
  for await (const part of parts) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file') {
        await part.toBuffer().catch(() => undefined);
        continue;
      }
      file = await part.toBuffer();
    } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
  }
  return { fields, file };
}

/** POST /ai/speech_emotion: check, score off the event loop, store, answer the SpeechScore. */
export function speechEmotionRoute(app: FastifyInstance, pool: ScoringPool): void {
  app.post('/speech_emotion', { preHandler: app.authenticate }, async (request) => {
    const user = currentUser(request);
    const upload = await readUpload(request);
    const fields = validate(speechEmotionFields, upload.fields);
    const rowId = fields.takeId ? takeRowId(user.id, fields.takeId) : crypto.randomUUID();
    if (fields.takeId) {
      const stored = await findStoredTake(app.db, rowId, user.id);
      if (stored) return ok(stored, 'already scored');
    }
    if (!upload.file) {
      throw new AppError(Code.BAD_REQUEST, '缺少录音文件（字段 file）(missing the file field)', 400, {
        field: 'file',
      });
    }
    checkTakeWav(upload.file);

    const film = await app.db
      .selectFrom('films')
      .select('id')
      .where('id', '=', fields.filmId)
      .executeTakeFirst();
    if (!film) throw notFound('影片');
    const line = await app.db
      .selectFrom('subtitles')
      .select(['id', 'target_emotion', 'reference_audio_key'])
      .where('id', '=', fields.subtitlesId)
      .where('film_id', '=', fields.filmId)
      .executeTakeFirst();
    if (!line) throw notFound('字幕');

    const [reference, speakerStats] = await Promise.all([
      loadReference(app.db, app.storage, line.id, line.reference_audio_key, request.log),
      loadSpeakerStats(app.db, user.id),
    ]);
    const target = emotion.safeParse(line.target_emotion);
    const takeId = fields.takeId ?? rowId;
    const result = await pool.run({
      // A private copy: the request buffer may share a pooled allocation, and this one is transferred.
      wav: new Uint8Array(upload.file),
      reference,
      targetEmotion: target.success ? (target.data as Emotion) : null,
      speakerStats,
      meta: {
        takeId,
        subtitlesId: line.id,
        filmId: fields.filmId,
        attempt: fields.attempt,
        audioUrl: app.storage.url(takeAudioKey(user.id, rowId)),
        createdAt: nowIso(),
      },
    });
    if (result.referenceRecord) {
      await cacheReference(app.db, line.id, line.reference_audio_key, result.referenceRecord);
    }

    const stored = await storeTake(app.db, app.storage, {
      rowId,
      userId: user.id,
      filmId: fields.filmId,
      subtitleId: line.id,
      attempt: fields.attempt,
      audio: upload.file,
      score: result.score,
      // Silence says nothing about the learner's voice: keep it out of their statistics.
      features: result.score.quality.speechDetected ? result.features : null,
    });
    if (!stored) {
      const first = await findStoredTake(app.db, rowId, user.id);
      if (first) return ok(first, 'already scored');
    }
    return ok(result.score);
  });
}
