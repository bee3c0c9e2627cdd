import mitt from 'mitt';

/**
 * The client's event bus. The request wrapper emits `sessionExpired` on code 1002 so no
 * call site handles expiry; exactly one listener (mounted by the app root) reacts to it.
 */
export type BusEvents = {
  sessionExpired: { code: number; msg: string; path: string };
};

export const bus = mitt<BusEvents>();
