/**
 * The app's one dub upload queue, wired to the request wrapper and the prpt store. Module-level so it
 * outlives page navigation: uploads keep going while the learner moves on to the next screen.
 */
import { discernSpeechEmotion } from '../../../api/calls';
import { recordAttempt } from '../../stores/prpt';
import { setLineState } from './line-state';
import { scoreStored, uploadStarted } from './pipeline-timing';
import { UploadQueue } from './upload-queue';
import { idbUploadStore } from './upload-store';

/** Object URLs of takes recorded on this page load, by upload id. */
export const takeSources = new Map<string, string>();

let queue: UploadQueue | null = null;

export function dubUploadQueue(): UploadQueue {
  queue ??= new UploadQueue({
    store: idbUploadStore(),
    send: (item, onProgress, signal) => {
      uploadStarted(item.uploadId);
      return discernSpeechEmotion(
        {
          file: item.wav,
          subtitlesId: item.subtitlesId,
          filmId: item.filmId,
          attempt: item.attempt,
          takeId: item.uploadId,
        },
        { signal, onUploadProgress: (p) => onProgress(p.fraction) },
      );
    },
    onScored: (item, result) => {
      // A take from an earlier page load has no local URL any more; the store falls back to audioUrl.
      recordAttempt(item.subtitlesId, JSON.stringify(result), takeSources.get(item.uploadId) ?? '');
      setLineState(item.subtitlesId, { stage: 'scored', overall: result.overall, attempt: item.attempt });
      scoreStored(item.uploadId, item.subtitlesId);
    },
    onState: (item, state) => setLineState(item.subtitlesId, state),
  });
  return queue;
}
