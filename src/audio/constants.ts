/**
 * One constants module for audio, imported by the worklet, the encoder worker,
 * the page and the server. Pure: no globals.
 */

/** AudioWorklet render quantum (frames per process() call). */
export const RENDER_QUANTUM = 128;
/** Sample rate of every wav the client uploads and the server analyses. */
export const TARGET_SAMPLE_RATE = 16_000;
/** Analysis frame hop: 10 ms. */
export const HOP_SECONDS = 0.01;
/** The encoder worker reports a take's stats, its live pitch among them, every 0.1 s of audio. */
export const LIVE_STATS_SECONDS = 0.1;
export const HOP_SAMPLES = Math.round(TARGET_SAMPLE_RATE * HOP_SECONDS);
/** Analysis frame length for spectral features: 40 ms. The pitch tracker uses its own longer window. */
export const FRAME_SECONDS = 0.04;
export const FRAME_SAMPLES = Math.round(TARGET_SAMPLE_RATE * FRAME_SECONDS);
/** Pitch search range. */
export const PITCH_MIN_HZ = 60;
export const PITCH_MAX_HZ = 600;
/** Longest take the AI service accepts (s). */
export const MAX_TAKE_SECONDS = 60;
/** Margin kept before and after each subtitle window when cutting a take (s). */
export const DEFAULT_WINDOW_MARGIN_SECONDS = 0.25;
/**
 * How far the clip may sit from where a take's windows expect it before they move to follow it (s):
 * well inside the margin, and above a frame's timing jitter (src/app/lib/clip-follower.ts).
 */
export const FOLLOW_TOLERANCE_SECONDS = 0.06;
/** Readings in a row, each past that tolerance on the same side, before the windows move. */
export const FOLLOW_READINGS = 3;
/** How often the clip's frame is read while it plays (one frame callback each, not one per frame). */
export const FOLLOW_READ_EVERY_MS = 250;
/**
 * A line's window closes before its trailing margin is over once the learner has been silent this
 * long past the line's end: the score comes sooner, and speech that runs over still gets the margin.
 */
export const ENDPOINT_SILENCE_SECONDS = 0.15;
/**
 * Silence is a level this far above the take's quietest 100 ms (its room noise), never above
 * ENDPOINT_SILENCE_MAX_DBFS (a loud room never counts as silence) nor below ENDPOINT_SILENCE_MIN_DBFS.
 */
export const ENDPOINT_ABOVE_FLOOR_DB = 12;
export const ENDPOINT_SILENCE_MIN_DBFS = -50;
export const ENDPOINT_SILENCE_MAX_DBFS = -35;
/** The page gets level messages at most this often. */
export const LEVEL_MESSAGE_HZ = 30;
/** Sample rates the AI service accepts on upload. */
export const ACCEPTED_SAMPLE_RATES = [8_000, 11_025, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000] as const;
