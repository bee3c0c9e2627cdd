import { signal } from '@preact/signals-react';

/** A message toast lasts 3 seconds unless told otherwise. */
export const TOAST_DURATION_MS = 3000;

export type ToastKind = 'info' | 'success' | 'warning' | 'error';

export interface Toast {
  id: number;
  kind: ToastKind;
  msg: string;
  durationMs: number;
}

export const toasts = signal<readonly Toast[]>([]);

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

export function dismissToast(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  toasts.value = toasts.value.filter((x) => x.id !== id);
}

function show(kind: ToastKind, msg: string, durationMs = TOAST_DURATION_MS): number {
  // The same message already on screen is not stacked again (e.g. several calls failing with 1002 at once).
  const same = toasts.value.find((x) => x.kind === kind && x.msg === msg);
  if (same) dismissToast(same.id);
  const id = nextId++;
  toasts.value = [...toasts.value, { id, kind, msg, durationMs }];
  if (durationMs > 0 && Number.isFinite(durationMs)) {
    timers.set(
      id,
      setTimeout(() => dismissToast(id), durationMs),
    );
  }
  return id;
}

export const toast = {
  info: (msg: string, durationMs?: number) => show('info', msg, durationMs),
  success: (msg: string, durationMs?: number) => show('success', msg, durationMs),
  warning: (msg: string, durationMs?: number) => show('warning', msg, durationMs),
  error: (msg: string, durationMs?: number) => show('error', msg, durationMs),
};

export function clearToasts(): void {
  for (const id of [...timers.keys()]) clearTimeout(timers.get(id));
  timers.clear();
  toasts.value = [];
}
