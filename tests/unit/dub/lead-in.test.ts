import { afterEach, describe, expect, it, vi } from 'vitest';
import { LeadInPlayer, planLeadIn } from '../../../src/app/features/dub/lead-in';
import type { SubtitleLine } from '../../../src/app/lib/movie-detail';

const line = (id: string, start: number, end: number) =>
  ({ id, startTime_m: start, endTime_m: end }) as unknown as SubtitleLine;
const LINES = [line('a', 1, 2.5), line('b', 3.5, 5), line('c', 6, 7)];
const M = 0.25;

afterEach(() => {
  vi.useRealTimers();
});

describe('a retake lead-in', () => {
  it('starts just before the previous line and falls silent before the retaken window opens', () => {
    expect(planLeadIn(LINES, LINES[1], M, 'actor', () => null)).toEqual({
      from: 0.8,
      silenceAt: 2.75, // the previous window's end, well before b's window (3.25)
      sound: 'actor',
      take: null,
    });
    // A short gap: silent 50 ms before the window opens, whatever the previous window says.
    const close = [line('a', 1, 2.5), line('b', 2.9, 4)];
    expect(planLeadIn(close, close[1], M, 'actor', () => null)?.silenceAt).toBeCloseTo(2.6, 9);
  });

  it("plays the learner's own take of the line before when asked, else the actor; the first line has none", () => {
    expect(planLeadIn(LINES, LINES[2], M, 'take', (id) => (id === 'b' ? 'blob:b' : null))).toMatchObject({
      sound: 'take',
      take: { url: 'blob:b', at: 3.25 },
    });
    expect(planLeadIn(LINES, LINES[2], M, 'take', () => null)).toMatchObject({ sound: 'actor', take: null });
    expect(planLeadIn(LINES, LINES[0], M, 'actor', () => null)).toBeNull();
  });

  it('the actor: the clip is unmuted while the previous line plays and muted again at silenceAt', () => {
    vi.useFakeTimers();
    const video = { muted: true };
    const player = new LeadInPlayer(planLeadIn(LINES, LINES[1], M, 'actor', () => null)!, video);
    player.start(0.8);
    expect(video.muted).toBe(false);
    player.tick(2.0);
    expect(video.muted).toBe(false);
    // Within the last clip tick the silence is timed exactly.
    player.tick(2.7);
    expect(video.muted).toBe(false);
    vi.advanceTimersByTime(40);
    expect(video.muted).toBe(false);
    vi.advanceTimersByTime(20);
    expect(video.muted).toBe(true);
  });

  it('the actor: falls silent on time even when no clip position arrives after the start', () => {
    vi.useFakeTimers();
    const video = { muted: true };
    const player = new LeadInPlayer(planLeadIn(LINES, LINES[1], M, 'actor', () => null)!, video);
    player.start(0.8);
    // silenceAt 2.75: 1.95 s of clip after the start, with no tick in between (a page held back).
    vi.advanceTimersByTime(1940);
    expect(video.muted).toBe(false);
    vi.advanceTimersByTime(20);
    expect(video.muted).toBe(true);
  });

  it('the learner: their take plays from its window start (the clip stays muted), paused at silenceAt', () => {
    const video = { muted: true };
    const audio = { currentTime: 0, play: vi.fn(() => Promise.resolve()), pause: vi.fn() };
    const player = new LeadInPlayer(
      planLeadIn(LINES, LINES[2], M, 'take', () => 'blob:b')!,
      video,
      () => audio as unknown as HTMLAudioElement,
    );
    player.start(3.3);
    expect(video.muted).toBe(true);
    expect(audio.play).toHaveBeenCalledTimes(1);
    expect(audio.currentTime).toBeCloseTo(0.05, 9); // the clip is 50 ms past the take's first sample
    player.tick(5.3);
    expect(audio.pause).toHaveBeenCalled();
    player.stop();
    expect(video.muted).toBe(true);
  });
});
