import mitt from 'mitt';
import type { EncodedWindow } from '../../../workers/encoder-types';

/**
 * What happens to a line on the dub screen, for observers (pipeline-timing.ts): the data path reports
 * events and never calls the measuring code itself. The upload stages in between are the queue's
 * events (stores/uploads/app-queue.ts).
 */
export type LineEvents = {
  /** The worker handed over a line's window, queued as `uploadId`. */
  window: { uploadId: string; window: EncodedWindow };
  /** A row has committed its line's score to the DOM. */
  shown: { subtitlesId: string };
};

export const lineEvents = mitt<LineEvents>();
