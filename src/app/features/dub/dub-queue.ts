/**
 * The app's one dub upload queue, wired to the request wrapper and the prpt store. Module-level so it
 * outlives page navigation: uploads keep going while the learner moves on to the next screen, and so
 * the app start (resume-uploads.ts, a dynamic import) and the dub page share it: one take, one send.
 */
import { effect, untracked } from '@preact/signals-react';
import { discernSpeechEmotion } from '../../../api/calls';
import type { SpeechScore } from '../../../api/contract';
import { token, USER_INFO_KEY, userInfo } from '../../stores/account';
import { recordAttempt } from '../../stores/prpt';
import { currentLearner } from './learner';
import { setLineState } from './line-state';
import { scoreStored, uploadStarted } from './pipeline-timing';
import { UploadQueue } from './upload-queue';
import { idbUploadStore, type PendingUpload } from './upload-store';

/** Object URLs of takes recorded on this page load, by upload id. */
export const takeSources = new Map<string, string>();

let queue: UploadQueue | null = null;

/** A scored upload becomes an attempt in the prpt store (first, then second) and a scored line. */
export function onUploadScored(item: PendingUpload, result: SpeechScore): 1 | 2 {
  // A take from an earlier page load has no local URL any more; the store falls back to audioUrl.
  const attempt = recordAttempt(
    item.subtitlesId,
    JSON.stringify(result),
    takeSources.get(item.uploadId) ?? '',
  );
  setLineState(item.subtitlesId, { stage: 'scored', overall: result.overall, attempt });
  scoreStored(item.uploadId, item.subtitlesId);
  return attempt;
}

export function dubUploadQueue(): UploadQueue {
  if (queue) return queue;
  const q = new UploadQueue({
    store: idbUploadStore(),
    learner: currentLearner,
    send: (item, onProgress, signal) => {
      uploadStarted(item.uploadId);
      return discernSpeechEmotion(
        {
          file: new Blob([item.wav], { type: 'audio/wav' }),
          subtitlesId: item.subtitlesId,
          filmId: item.filmId,
          attempt: item.attempt,
          takeId: item.uploadId,
        },
        { signal, onUploadProgress: (p) => onProgress(p.fraction) },
      );
    },
    onScored: onUploadScored,
    onState: (item, state) => setLineState(item.subtitlesId, state),
  });
  watchLearner(q);
  queue = q;
  return q;
}

/**
 * Tells the queue at once when the learner may have changed, so the previous learner's sends are
 * aborted before a new token goes out: a login or logout in this tab (the account signals), or in
 * another tab (its user info written to, or cleared from, localStorage). The queue also checks the
 * cookie before every send. Lives as long as the page: the queue is a page-long singleton.
 */
function watchLearner(q: UploadQueue): void {
  effect(() => {
    token.value;
    userInfo.value;
    untracked(() => q.learnerChanged()); // the queue's own signals must not re-run this effect
  });
  window.addEventListener('storage', (e) => {
    if (e.key === USER_INFO_KEY || e.key === null) q.learnerChanged();
  });
}

/**
 * Sends what earlier pages left in IndexedDB for the logged-in learner, wherever they are (called at
 * app start, on `online` and after a login by resume-uploads.ts, only when a token exists). Scores
 * land in the prpt store through `onUploadScored`, exactly as on the dub page. Returns how many of
 * this learner's uploads were stored.
 */
export async function resumePendingUploads(): Promise<number> {
  const q = dubUploadQueue();
  q.resumeAfterLogin(); // only called with a token: a new login after a 1002, if there was one
  return (await q.resume()).length;
}
