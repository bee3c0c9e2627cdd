/**
 * The app's one upload queue, wired to the AI service call, the prpt scores (subTitlesScores) and the
 * line states. Module-level so it outlives navigation: uploads keep going while the learner moves on
 * to the next screen, and start.ts (a dynamic import) and the dub screen share it: one take, one send.
 */
import mitt from 'mitt';
import { discernSpeechEmotion } from '../../../api/calls';
import type { SpeechScore } from '../../../api/contract';
import { recordAttempt, scoresRunOf } from '../takes/sub-titles-scores';
import { currentLearner } from './learner';
import { clearLineState, setLineState } from './line-state';
import { queueCreated } from './queue-created';
import { UploadQueue } from './upload-queue';
import { idbUploadStore, type PendingUpload } from './upload-store';

/** What the app's queue does with each upload, for observers (the dub pipeline timing). */
export type UploadEvents = {
  /** The request for this upload is being sent. */
  sending: PendingUpload;
  /** The service scored it and the score is in subTitlesScores. */
  scored: { item: PendingUpload; result: SpeechScore };
};
export const uploadEvents = mitt<UploadEvents>();

/** Object URLs of takes recorded on this page load, by upload id (the dub session fills it). */
export const takeSources = new Map<string, string>();

let queue: UploadQueue | null = null;

/**
 * A scored upload becomes an attempt in subTitlesScores (first, then second) and a scored line. A take
 * of an earlier run (kept offline while the learner answered again) is stored in that run by the
 * service; this run's entries do not take it, so the line stays as this run has it. Null then.
 */
export function onUploadScored(item: PendingUpload, result: SpeechScore): 1 | 2 | null {
  const shown = scoresRunOf(item.filmId);
  if (item.runId && shown && item.runId !== shown) {
    clearLineState(item.subtitlesId);
    return null;
  }
  // A take from an earlier page load has no local URL any more; the store falls back to audioUrl.
  const attempt = recordAttempt(
    item.subtitlesId,
    JSON.stringify(result),
    takeSources.get(item.uploadId) ?? '',
  );
  setLineState(item.subtitlesId, { stage: 'scored', overall: result.overall, attempt });
  uploadEvents.emit('scored', { item, result });
  return attempt;
}

export function uploadQueue(): UploadQueue {
  if (queue) return queue;
  const q = new UploadQueue({
    store: idbUploadStore(),
    learner: currentLearner,
    send: (item, onProgress, signal) => {
      uploadEvents.emit('sending', item);
      return discernSpeechEmotion(
        {
          file: new Blob([item.wav], { type: 'audio/wav' }),
          subtitlesId: item.subtitlesId,
          filmId: item.filmId,
          attempt: item.attempt,
          takeId: item.uploadId,
          runId: item.runId,
        },
        { signal, onUploadProgress: (p) => onProgress(p.fraction) },
      );
    },
    onScored: onUploadScored,
    onState: (item, state) => setLineState(item.subtitlesId, state),
  });
  queue = q;
  queueCreated(q);
  return q;
}
