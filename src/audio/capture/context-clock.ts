/**
 * An AudioContext's clock against the page's, for the recorder's anchor and Watch my dub.
 *
 * Where the engine answers them safely, getOutputTimestamp() (context time heard at the speaker and
 * the performance time it was heard) and outputLatency (render clock → speaker). In Gecko, asking
 * them can leave the page's main thread waiting for good: Firefox ESR 153 stopped answering
 * in 5 of 8 scene takes after the cinema had played the clip, its content process idle in a native
 * wait under the page's script, and in none of 16 with this clock (tests/engines/journeys.ts, part two).
 * There the clock is the render clock (currentTime) read beside performance.now(): early by the
 * output latency and late by up to a render block, both within a window's margins
 * (src/audio/dsp/windows.ts).
 *
 * The same reading stands in where getOutputTimestamp answers a pair that cannot be true: a frame
 * heard in the future, or one heard longer ago than any output buffers. WebKitGTK 2.50 answers
 * `performanceTime` = performance.now() + contextTime × 1000 (read every 250 ms for 3 s: 1 002 ms at
 * now 727 ms and context time 0.28 s, 6 551 ms at 3 499 ms and 3.05 s), which put a take's anchor
 * about the context's age early (the count-in and more: the windows were cut from the audio seconds
 * before each line) and Watch my dub's takes late (docs/browsers.md).
 */

/** How far ahead of performance.now() a reading may say its frame was heard (ms): a clock's jitter. */
const AHEAD_MS = 20;
/** How long ago (ms) a reading's frame may have been heard: longer than any output buffering. */
const BEHIND_MS = 1000;

export interface ContextTimestamp {
  contextTime: number;
  performanceTime: number;
}

/** Whether this engine's latency queries may block the main thread (Gecko). */
export function latencyQueriesBlock(userAgent: string = navigator.userAgent): boolean {
  return /\bGecko\/\d/.test(userAgent) && /\bFirefox\//.test(userAgent);
}

/** The context time heard now and the performance time of that reading. */
export function outputTimestamp(ctx: AudioContext): ContextTimestamp {
  const renderClock = () => ({ contextTime: ctx.currentTime, performanceTime: performance.now() });
  if (latencyQueriesBlock()) return renderClock();
  const ts = ctx.getOutputTimestamp();
  const now = performance.now();
  if (
    ts.contextTime === undefined ||
    ts.performanceTime === undefined ||
    ts.performanceTime > now + AHEAD_MS ||
    ts.performanceTime < now - BEHIND_MS
  )
    return renderClock();
  return { contextTime: ts.contextTime, performanceTime: ts.performanceTime };
}

/** Render clock → speaker, in seconds; 0 where asking could block (the render clock is the reading there). */
export function outputLatency(ctx: AudioContext): number {
  return latencyQueriesBlock() ? 0 : ctx.outputLatency || 0;
}

/**
 * The most a microphone's frames wait for a context clock that falls behind (s); the rest of the fall
 * is audio the engine drops or resamples away, so the frames follow the clock again. Firefox on a
 * 2-core machine at load 20 (tests/engines/journeys.ts, part two, with the clock read every 50 ms):
 * its clock fell 0.8–1.5 s behind the page's over a 20 s scene take while each line's audio sat within
 * 0–0.23 s of where the bare clock put it, never the whole fall. Half that span errs by at most 0.13 s
 * either way, inside a window's margin (DEFAULT_WINDOW_MARGIN_SECONDS).
 */
export const HELD_FRAMES_MAX_SECONDS = 0.1;

/**
 * The reading `now` of a context fed by a microphone, moved on by the time its clock has fallen behind
 * the page's since `start` (a reading taken when the microphone's frames first reached the worklet),
 * up to HELD_FRAMES_MAX_SECONDS. Firefox on a loaded machine lets the clock fall behind during a take
 * while the microphone's frames wait for it a little (0.19 s during a count-in once) and then drop or
 * resample the rest: the sound at the microphone now reaches the worklet a little later in context
 * time than the bare reading says, but never by the whole fall (moving it on by the whole fall cut
 * the lines of a take from ever later sound, +0.3 s to +2.3 s by the sixth line). A clock that keeps
 * time, or runs ahead, is read as it is.
 */
export function heardTimestamp(start: ContextTimestamp, now: ContextTimestamp): ContextTimestamp {
  const behind = (now.performanceTime - start.performanceTime) / 1000 - (now.contextTime - start.contextTime);
  return behind > 0
    ? {
        contextTime: now.contextTime + Math.min(behind, HELD_FRAMES_MAX_SECONDS),
        performanceTime: now.performanceTime,
      }
    : now;
}
