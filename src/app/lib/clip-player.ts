/**
 * Short clips (a line's three versions: the actor, the take, the take with the actor's melody)
 * played one at a time through one AudioContext. Each clip is decoded once and kept, so pressing
 * another version switches at once: comparing two-second lines by ear needs no load gap between
 * them. A press stops whatever was playing.
 */

/** Decoded clips kept: the three versions of two lines. */
const KEPT = 6;

let context: AudioContext | null = null;
const decoded = new Map<string, Promise<AudioBuffer>>();
let current: AudioBufferSourceNode | null = null;
/** Counts presses: a clip still loading when another is pressed never starts. */
let presses = 0;

function audioContext(): AudioContext {
  context ??= new AudioContext();
  return context;
}

async function decode(ctx: AudioContext, url: string): Promise<AudioBuffer> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return ctx.decodeAudioData(await res.arrayBuffer());
}

function bufferOf(ctx: AudioContext, url: string): Promise<AudioBuffer> {
  let pending = decoded.get(url);
  if (!pending) {
    pending = decode(ctx, url);
    // A failed load is forgotten, so the next press tries again.
    pending.catch(() => decoded.delete(url));
    decoded.set(url, pending);
    if (decoded.size > KEPT) decoded.delete(decoded.keys().next().value as string);
  }
  return pending;
}

/** Stops the clip that is playing, if any (its `onEnded` runs). */
export function stopClip(): void {
  const playing = current;
  current = null;
  playing?.stop();
}

/**
 * Plays `url` from its start, stopping any other clip; `onEnded` runs when it ends or is stopped.
 * Must be called from the press itself: a browser starts audio only after a gesture.
 */
export async function playClip(url: string, onEnded: () => void): Promise<void> {
  stopClip();
  const press = ++presses;
  const ctx = audioContext();
  await ctx.resume();
  const buffer = await bufferOf(ctx, url);
  if (press !== presses) return onEnded();
  stopClip();
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  source.connect(ctx.destination);
  source.onended = () => {
    if (current === source) current = null;
    onEnded();
  };
  current = source;
  source.start();
}

/** A stretch of a clip: seconds from its start. */
export interface ClipPart {
  url: string;
  start: number;
  end: number;
}

/** Silence between two parts played one after the other, so the ear hears them as two. */
const PART_GAP_SECONDS = 0.25;

/**
 * Plays stretches of clips one after the other (a word from the actor's line, then the same word
 * from the take), stopping any other clip; `onEnded` runs once when the last ends or all are stopped.
 * Must be called from the press itself, like playClip.
 */
export async function playClipParts(parts: readonly ClipPart[], onEnded: () => void): Promise<void> {
  stopClip();
  const press = ++presses;
  const ctx = audioContext();
  await ctx.resume();
  const buffers = await Promise.all(parts.map((p) => bufferOf(ctx, p.url)));
  if (press !== presses || parts.length === 0) return onEnded();
  stopClip();
  let at = ctx.currentTime + 0.02;
  const sources = parts.map((part, i) => {
    const buffer = buffers[i];
    const start = Math.max(0, Math.min(part.start, buffer.duration));
    const duration = Math.max(0, Math.min(part.end, buffer.duration) - start);
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(ctx.destination);
    source.start(at, start, duration);
    at += duration + PART_GAP_SECONDS;
    return source;
  });
  const last = sources[sources.length - 1];
  // Stopping the last part stops them all: stopClip() stops `current`, so it must reach the others.
  last.onended = () => {
    for (const s of sources) if (s !== last) s.stop();
    if (current === last) current = null;
    onEnded();
  };
  current = last;
}
