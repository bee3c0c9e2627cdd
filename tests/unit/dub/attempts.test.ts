import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SpeechScore } from '../../../src/api/contract';
import type { PendingUpload } from '../../../src/app/stores/uploads/upload-store';
import { speechScore } from '../fixtures/speech-score';

const item = (subtitlesId: string, uploadId: string, attempt: 1 | 2): PendingUpload => ({
  uploadId,
  sceneTakeId: 'take-1',
  subtitlesId,
  filmId: 'film-1',
  attempt,
  wav: new ArrayBuffer(44),
  createdAt: 0,
  tries: 0,
  notBefore: 0,
  owner: 'u:learner-1',
});
const result = (overall: number): SpeechScore =>
  speechScore({ overall, audioUrl: `/media/takes/${overall}.wav` });

beforeEach(() => {
  vi.resetModules();
});

describe('attempt bookkeeping through the prpt store', () => {
  it('fills first-attempt fields, then second-attempt fields, and the session asks for attempt 2', async () => {
    const { onUploadScored, takeSources } = await import('../../../src/app/stores/uploads/app-queue');
    const { subTitlesScores, nextAttempt } = await import('../../../src/app/stores/takes/sub-titles-scores');
    const { lineStates } = await import('../../../src/app/stores/uploads/line-state');
    takeSources.set('u1', 'blob:take-1');
    takeSources.set('u2', 'blob:take-2');
    expect(nextAttempt('s1')).toBe(1);
    expect(onUploadScored(item('s1', 'u1', 1), result(61))).toBe(1);
    expect(subTitlesScores.value.s1).toMatchObject({
      subtitlesId: 's1',
      firstUserAudioJson: JSON.stringify(result(61)),
      firstSource: 'blob:take-1',
    });
    expect(subTitlesScores.value.s1.secondUserAudioJson).toBeUndefined();
    expect(nextAttempt('s1')).toBe(2);
    expect(onUploadScored(item('s1', 'u2', 2), result(74))).toBe(2);
    expect(subTitlesScores.value.s1).toMatchObject({
      firstUserAudioJson: JSON.stringify(result(61)),
      secondUserAudioJson: JSON.stringify(result(74)),
      secondSource: 'blob:take-2',
    });
    expect(lineStates.value.s1).toMatchObject({ stage: 'scored', overall: 74, attempt: 2 });
  });

  it("a take of an earlier run, scored late, stays out of this run's entries", async () => {
    const { onUploadScored } = await import('../../../src/app/stores/uploads/app-queue');
    const { subTitlesScores, adoptRunScores } = await import(
      '../../../src/app/stores/takes/sub-titles-scores'
    );
    const { lineStates, setLineState } = await import('../../../src/app/stores/uploads/line-state');
    adoptRunScores('film-1', 'run-2', []);
    setLineState('s4', { stage: 'uploading', progress: 0.5 });
    expect(onUploadScored({ ...item('s4', 'u4', 1), runId: 'run-1' }, result(55))).toBeNull();
    expect(subTitlesScores.value.s4).toBeUndefined();
    expect(lineStates.value.s4).toBeUndefined();
    // A take of the run shown is recorded as usual.
    expect(onUploadScored({ ...item('s4', 'u5', 1), runId: 'run-2' }, result(66))).toBe(1);
    expect(subTitlesScores.value.s4).toBeDefined();
  });

  it('survives a reload: scores come back from sessionStorage, dead blob URLs marked lost', async () => {
    const first = await import('../../../src/app/stores/uploads/app-queue');
    first.takeSources.set('u1', 'blob:take-1');
    first.onUploadScored(item('s9', 'u1', 1), result(88));
    window.dispatchEvent(new Event('pagehide')); // the reload: the page goes away
    expect(sessionStorage.getItem('prpt.subTitlesScores/s9')).toContain('s9');

    vi.resetModules(); // a new page load: modules re-read storage
    const { subTitlesScores, nextAttempt, playableSource } = await import(
      '../../../src/app/stores/takes/sub-titles-scores'
    );
    const entry = subTitlesScores.value.s9;
    expect(entry).toMatchObject({
      firstUserAudioJson: JSON.stringify(result(88)),
      firstSource: '',
      firstSourceLost: true,
    });
    expect(nextAttempt('s9')).toBe(2);
    expect(playableSource(entry, 1)).toBe('/producer/media/takes/88.wav');
  });

  it('a retake while the first take is still uploading counts as attempt 2', async () => {
    const { DubSession } = await import('../../../src/app/features/dub/dub-session');
    const { UploadQueue } = await import('../../../src/app/stores/uploads/upload-queue');
    const { idbUploadStore } = await import('../../../src/app/stores/uploads/upload-store');
    const { createStore } = await import('idb-keyval');
    const queue = new UploadQueue({
      store: idbUploadStore(createStore('attempts-db', 'pending')),
      send: () => new Promise<SpeechScore>(() => {}), // the service never answers
      onScored: () => {},
      onState: () => {},
      learner: () => 'u:learner-1',
    });
    const session = new DubSession({
      filmId: 'film-1',
      queue,
      bridge: {} as never,
      createRecorder: () => Promise.reject(new Error('not used')),
      sources: new Map(),
    });
    expect(session.attemptFor('s5')).toBe(1);
    await queue.enqueue({
      uploadId: 'u5',
      sceneTakeId: 't',
      subtitlesId: 's5',
      filmId: 'film-1',
      attempt: 1,
      wav: new ArrayBuffer(4),
    });
    expect(session.attemptFor('s5')).toBe(2);
    queue.dispose();
  });
});
