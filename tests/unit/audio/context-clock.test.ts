import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  HELD_FRAMES_MAX_SECONDS,
  heardTimestamp,
  latencyQueriesBlock,
  outputLatency,
  outputTimestamp,
} from '../../../src/audio/capture/context-clock';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0';
const CHROMIUM =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
const FIREFOX_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/140.0 Mobile/15E148 Safari/605.1.15';

/** A context whose latency queries fail the test if asked: they are what hangs Gecko's page. */
function context(): AudioContext {
  return {
    currentTime: 12.5,
    getOutputTimestamp: () => ({ contextTime: 12.42, performanceTime: 9000 }),
    get outputLatency() {
      return 0.04;
    },
  } as unknown as AudioContext;
}

function asEngine(userAgent: string): void {
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(userAgent);
}

afterEach(() => vi.restoreAllMocks());

describe('the audio context clock', () => {
  it('names Gecko only: Chromium and every WebKit (iPhone browsers included) keep the latency queries', () => {
    expect(latencyQueriesBlock(FIREFOX)).toBe(true);
    expect(latencyQueriesBlock(CHROMIUM)).toBe(false);
    expect(latencyQueriesBlock(IPHONE)).toBe(false);
    expect(latencyQueriesBlock(FIREFOX_ON_IPHONE)).toBe(false);
  });

  it('reads getOutputTimestamp and outputLatency where they are safe', () => {
    asEngine(CHROMIUM);
    const ctx = context();
    vi.spyOn(performance, 'now').mockReturnValue(9030);
    expect(outputTimestamp(ctx)).toEqual({ contextTime: 12.42, performanceTime: 9000 });
    expect(outputLatency(ctx)).toBe(0.04);
  });

  it("reads the render clock where getOutputTimestamp's pair cannot be true: WebKitGTK's frame heard in the future", () => {
    asEngine(IPHONE);
    const ctx = {
      currentTime: 3.056,
      // WebKitGTK 2.50, read 3.5 s after the page's start: performanceTime = now + contextTime × 1000.
      getOutputTimestamp: () => ({ contextTime: 3.053, performanceTime: 6551 }),
    } as unknown as AudioContext;
    vi.spyOn(performance, 'now').mockReturnValue(3499);
    expect(outputTimestamp(ctx)).toEqual({ contextTime: 3.056, performanceTime: 3499 });
    // Heard longer ago than any output buffers (a frozen reading) is not believed either.
    vi.spyOn(ctx, 'getOutputTimestamp').mockReturnValue({ contextTime: 1, performanceTime: 1000 });
    expect(outputTimestamp(ctx)).toEqual({ contextTime: 3.056, performanceTime: 3499 });
  });

  it('in Gecko never asks them: the render clock beside performance.now(), no output latency', () => {
    asEngine(FIREFOX);
    const ctx = context();
    const asked = vi.spyOn(ctx, 'getOutputTimestamp');
    const latency = vi.spyOn(ctx, 'outputLatency', 'get');
    vi.spyOn(performance, 'now').mockReturnValue(4321);
    expect(outputTimestamp(ctx)).toEqual({ contextTime: 12.5, performanceTime: 4321 });
    expect(outputLatency(ctx)).toBe(0);
    expect(asked).not.toHaveBeenCalled();
    expect(latency).not.toHaveBeenCalled();
  });

  it("moves a microphone context's reading on by the time its clock fell behind the page's since frames began to flow, up to what the frames wait", () => {
    const start = { contextTime: 0.1, performanceTime: 5000 };
    // 3 s later on the page, 2.81 s later on the context: its clock fell 0.19 s behind.
    const now = heardTimestamp(start, { contextTime: 2.91, performanceTime: 8000 });
    expect(now.performanceTime).toBe(8000);
    expect(now.contextTime).toBeCloseTo(2.91 + HELD_FRAMES_MAX_SECONDS, 9);
    // A fall of 1.2 s: the frames waited no more than HELD_FRAMES_MAX_SECONDS, the rest was dropped.
    expect(heardTimestamp(start, { contextTime: 1.9, performanceTime: 8000 }).contextTime).toBeCloseTo(
      1.9 + HELD_FRAMES_MAX_SECONDS,
      9,
    );
    // A fall shorter than that is added back whole.
    expect(heardTimestamp(start, { contextTime: 3.05, performanceTime: 8000 }).contextTime).toBeCloseTo(
      3.1,
      9,
    );
    // A clock that kept time, or ran ahead, is read as it is.
    expect(heardTimestamp(start, { contextTime: 3.1, performanceTime: 8000 })).toEqual({
      contextTime: 3.1,
      performanceTime: 8000,
    });
    expect(heardTimestamp(start, { contextTime: 3.15, performanceTime: 8000 })).toEqual({
      contextTime: 3.15,
      performanceTime: 8000,
    });
  });
});
