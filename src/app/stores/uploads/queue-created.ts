/**
 * The meeting point of the app's queue (app-queue.ts) and the triggers that drive it (start.ts):
 * app-queue announces the queue here when it creates it, start listens, and neither imports the
 * other (start loads app-queue lazily, so a static import back would make a cycle).
 */
import type { UploadQueue } from './upload-queue';

/** The part of the queue the triggers drive. */
export type TriggeredQueue = Pick<UploadQueue, 'resume' | 'resumeAfterLogin' | 'kick' | 'learnerChanged'>;

let created: TriggeredQueue | null = null;
let listener: ((q: TriggeredQueue) => void) | null = null;

/** Called by app-queue.ts when the app's queue is created (by start's load or by a screen). */
export function queueCreated(q: TriggeredQueue): void {
  created = q;
  listener?.(q);
}

/** The queue, if created; `listen` (one at a time, null to stop) hears each creation from now on. */
export function watchQueueCreated(listen: ((q: TriggeredQueue) => void) | null): TriggeredQueue | null {
  listener = listen;
  return created;
}
