import { computed, type ReadonlySignal, signal } from '@preact/signals-react';

/**
 * What the learner sees for one subtitle line on its way from the microphone to a score: the dub
 * session sets recording and encoding, the upload queue (app-queue.ts) the stages after.
 */
export type LineStage = 'idle' | 'recording' | 'encoding' | 'queued' | 'uploading' | 'scored' | 'failed';

export interface LineState {
  stage: LineStage;
  /** Upload progress 0..1 while uploading (null: size unknown). */
  progress?: number | null;
  /** For `failed`: a message a person can act on; for `queued`: why it waits (offline, retrying). */
  message?: string;
  /** When a queued upload will be tried again (epoch ms). */
  retryAt?: number;
  /** Which attempt this take fills (1 or 2). */
  attempt?: 1 | 2;
  /** Score shown once scored (0–100). */
  overall?: number;
}

export const lineStates = signal<Record<string, LineState>>({});

export function setLineState(subtitlesId: string, next: LineState): void {
  lineStates.value = { ...lineStates.peek(), [subtitlesId]: next };
}

export function patchLineState(subtitlesId: string, patch: Partial<LineState>): void {
  const current = lineStates.peek()[subtitlesId] ?? { stage: 'idle' };
  setLineState(subtitlesId, { ...current, ...patch });
}

/** Forgets one line's state: its row shows what the scores say again (scored or idle). */
export function clearLineState(subtitlesId: string): void {
  const { [subtitlesId]: _gone, ...rest } = lineStates.peek();
  lineStates.value = rest;
}

export function resetLineStates(): void {
  lineStates.value = {};
}

const perLine = new Map<string, ReadonlySignal<LineState | undefined>>();

/**
 * One line's state as its own signal: a row that reads it re-renders only when its own line changes,
 * not when any of the other lines moves on (that kept a 60-line take re-rendering every row).
 */
export function lineStateOf(subtitlesId: string): ReadonlySignal<LineState | undefined> {
  let s = perLine.get(subtitlesId);
  if (!s) {
    s = computed(() => lineStates.value[subtitlesId]);
    perLine.set(subtitlesId, s);
  }
  return s;
}
