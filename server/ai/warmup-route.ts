import type { FastifyInstance } from 'fastify';
import { Code, type VoiceWarmupState } from '../../src/api/contract';
import { catalogueError } from '../lib/app-error';
import { ok } from '../lib/reply';
import { currentUser } from '../plugins/auth';
import { reserveUpload } from '../takes/retention';
import { storeWarmup, warmupStatus } from '../takes/warmup';
import { checkFiniteSamples, checkTakeWav } from './audio-check';
import { readUpload } from './speech-emotion-route';

/**
 * The voice warm-up (server/takes/warmup.ts, docs/api.md "Voice warm-up"):
 *  - GET /ai/voice_warmup: whether to offer it (status none) or not (recorded, skipped, known);
 *  - POST /ai/voice_warmup: the warm-up wav (multipart, field file), analysed in the worker pool;
 *    a recording without a voice in it is answered with `refused` and the status stays as it was;
 *  - POST /ai/voice_warmup_skip: the learner skips it (the first takes are read cold).
 */
export function warmupRoutes(app: FastifyInstance): void {
  app.get('/voice_warmup', { preValidation: app.authenticate }, async (request) => {
    const user = currentUser(request);
    const state: VoiceWarmupState = { status: await warmupStatus(app.db, user.id) };
    return ok(state);
  });

  app.post('/voice_warmup', { preValidation: app.authenticate }, async (request) => {
    const user = currentUser(request);
    const upload = await readUpload(request);
    if (!upload.file) {
      throw catalogueError(Code.BAD_REQUEST, 'error.badRequest', { status: 400, data: { field: 'file' } });
    }
    checkFiniteSamples(upload.file, checkTakeWav(upload.file));
    await reserveUpload(app.db, user.id, upload.file.length, app.config.takesUploadBytesPerDay);
    const result = await app.scoring.warmup({ wav: new Uint8Array(upload.file) });
    if ('refused' in result) {
      const state: VoiceWarmupState = {
        status: await warmupStatus(app.db, user.id),
        refused: result.refused,
      };
      return ok(state);
    }
    const { seeded } = await storeWarmup(app.db, user.id, result.features);
    const state: VoiceWarmupState = { status: 'recorded', seeded };
    return ok(state);
  });

  app.post('/voice_warmup_skip', { preValidation: app.authenticate }, async (request) => {
    const user = currentUser(request);
    // Skipping after a recorded warm-up (another tab) keeps the recording.
    if ((await warmupStatus(app.db, user.id)) === 'recorded')
      return ok({ status: 'recorded' } as VoiceWarmupState);
    await storeWarmup(app.db, user.id, null);
    const state: VoiceWarmupState = { status: 'skipped' };
    return ok(state);
  });
}
