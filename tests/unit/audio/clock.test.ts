import { describe, expect, it } from 'vitest';
import { ClockError, MediaClock, presentedContextTime } from '../../../src/audio/dsp/clock';

const base = {
  sampleRate: 48000,
  contextTime: 2, // the clip frame at mediaTime was shown when context time 2.000 s was at the speaker
  mediaTime: 10,
  playbackRate: 1,
  outputLatency: 0,
  inputLatency: 0,
  firstCaptureFrame: 96000, // capture started at context time 2.000 s
};

describe('MediaClock', () => {
  it('maps the anchor frame to capture index 0 when capture started at that moment', () => {
    const clock = new MediaClock(base);
    expect(clock.mediaToCaptureIndex(10)).toBe(0);
    expect(clock.mediaToCaptureIndex(11.5)).toBe(72000);
    expect(clock.mediaToStreamIndex(11.5, 16000)).toBe(24000);
  });

  it('shifts later by output latency plus input latency (voice reaches the worklet after the frame)', () => {
    const clock = new MediaClock({ ...base, outputLatency: 0.04, inputLatency: 0.01 });
    expect(clock.mediaToCaptureIndex(10)).toBeCloseTo(2400, 6);
    expect(clock.mediaToCaptureContextTime(12)).toBeCloseTo(4.05, 9);
  });

  it('scales clip time by the playback rate', () => {
    const clock = new MediaClock({ ...base, playbackRate: 0.5 });
    // 1 s of clip at half speed lasts 2 s of audio.
    expect(clock.mediaToCaptureIndex(11)).toBe(96000);
  });

  it('accounts for capture starting before the clip (count-in)', () => {
    const clock = new MediaClock({ ...base, firstCaptureFrame: 48000 }); // capture from context time 1 s
    expect(clock.mediaToCaptureIndex(10)).toBe(48000);
    expect(clock.mediaToCaptureIndex(9)).toBe(0);
  });

  it('inverts exactly', () => {
    const clock = new MediaClock({ ...base, outputLatency: 0.023, inputLatency: 0.0107, playbackRate: 1.25 });
    for (const m of [9.5, 10, 33.333, 600]) {
      expect(clock.captureIndexToMedia(clock.mediaToCaptureIndex(m))).toBeCloseTo(m, 9);
      expect(clock.streamIndexToMedia(clock.mediaToStreamIndex(m, 16000), 16000)).toBeCloseTo(m, 9);
    }
  });

  it('rejects missing or impossible anchor values with the field name', () => {
    expect(() => new MediaClock({ ...base, outputLatency: Number.NaN })).toThrow(/outputLatency/);
    expect(() => new MediaClock({ ...base, playbackRate: 0 })).toThrow(ClockError);
    expect(() => new MediaClock({ ...base, inputLatency: -0.1 })).toThrow(/negative/);
  });
});

describe('presentedContextTime', () => {
  it('converts a wall-clock instant to the context time heard then, via getOutputTimestamp', () => {
    const ts = { contextTime: 5, performanceTime: 1000 };
    expect(presentedContextTime(ts, 1250)).toBe(5.25);
    expect(presentedContextTime(ts, 900)).toBeCloseTo(4.9, 12);
  });
});
