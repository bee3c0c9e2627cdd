import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Code, type Emotion, emotion, type SpeechScore, speechEmotionFields } from '../../src/api/contract';
import { catalogueError, notFound } from '../lib/app-error';
import { nowIso } from '../lib/ids';
import { ok } from '../lib/reply';
import { validate } from '../lib/validate';
import { currentUser } from '../plugins/auth';
import { checkFiniteSamples, checkTakeWav, MAX_TAKE_BYTES } from './audio-check';
import type { TakeScoring } from './scoring';
import { filmExists, findLine } from '../films/queries';
import { signScore, takeLinkSigner } from '../takes/audio-links';
import { attemptsUsed, findStoredTake, takeRowId } from '../takes/repository';
import { reserveUpload } from '../takes/retention';
import { runForTake } from '../takes/runs';

interface Upload {
  fields: Record<string, string>;
  file: Buffer | null;
}

/** Reads the multipart form: text fields and the one `file` part, within the take size limit. */
export async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) {
    throw catalogueError(Code.UNSUPPORTED_MEDIA, 'upload.notMultipart');
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

/** POST /ai/speech_emotion: check, score off the event loop (pool or queue), store, answer the SpeechScore. */
export function speechEmotionRoute(app: FastifyInstance, scoring: TakeScoring): void {
  app.post('/speech_emotion', { preValidation: app.authenticate }, async (request) => {
    const user = currentUser(request);
    // The answer's audio link is signed (the stored score keeps the plain path).
    const answer = async (score: SpeechScore, msg?: string) =>
      ok(signScore(await takeLinkSigner(app.db, app.config.takeLinkTtlSeconds), score), msg);
    const upload = await readUpload(request);
    const fields = validate(speechEmotionFields, upload.fields);
    const rowId = fields.takeId ? takeRowId(user.id, fields.takeId) : crypto.randomUUID();
    if (fields.takeId) {
      const stored = await findStoredTake(app.db, rowId, user.id);
      if (stored) return answer(stored, 'already scored');
    }
    if (!upload.file) {
      throw catalogueError(Code.BAD_REQUEST, 'upload.noFile', { data: { field: 'file' } });
    }
    checkFiniteSamples(upload.file, checkTakeWav(upload.file));

    if (!(await filmExists(app.db, fields.filmId))) throw notFound('error.filmNotFound');
    const line = await findLine(app.db, fields.filmId, fields.subtitlesId);
    if (!line) throw notFound('error.lineNotFound');

    const run = await runForTake(app.db, user.id, fields.filmId, fields.runId);
    if (await attemptsUsed(app.db, run.id, line.id, app.config.takesAttemptsPerLine)) {
      throw catalogueError(Code.CONFLICT, 'error.attemptsUsed', { data: { field: 'attempt' } });
    }
    await reserveUpload(app.db, user.id, upload.file.length, app.config.takesUploadBytesPerDay);
    const target = emotion.safeParse(line.target_emotion);
    const score = await scoring.submit(
      {
        rowId,
        userId: user.id,
        takeId: fields.takeId ?? rowId,
        filmId: fields.filmId,
        runId: run.id,
        subtitleId: line.id,
        attempt: fields.attempt,
        referenceKey: line.reference_audio_key,
        targetEmotion: target.success ? (target.data as Emotion) : null,
        createdAt: nowIso(),
      },
      upload.file,
    );
    return answer(score);
  });
}
