import { afterEach, describe, expect, it, vi } from 'vitest';
import { DubPlayer } from '../../../src/app/features/watch-dub/dub-player';
import { planMix } from '../../../src/app/features/watch-dub/mix-plan';

// The player itself across a seek while it plays: a stand-in audio graph records every source started
// and stopped, and a stand-in clip presents the frames the test gives it (the clip time shown at a
// context time), so where each take starts is read from the graph.
interface Source {
  url: string;
  at?: number;
  offset?: number;
  stopped: boolean;
}

function fakes(durations: Record<string, number>) {
  const sources: Source[] = [];
  const clock = { t: 1 };
  const param = { setValueAtTime() {}, linearRampToValueAtTime() {} };
  class Context {
    state = 'running';
    destination = {};
    get currentTime() {
      return clock.t;
    }
    resume = async () => undefined;
    close = async () => undefined;
    getOutputTimestamp = () => ({ contextTime: clock.t, performanceTime: 1000 });
    decodeAudioData = async (bytes: ArrayBuffer) => {
      const url = new TextDecoder().decode(bytes);
      return { url, duration: durations[url] };
    };
    createGain = () => ({ gain: param, connect() {}, disconnect() {} });
    createBufferSource() {
      const node = {
        buffer: null as { url: string } | null,
        onended: null,
        connect() {},
        disconnect() {},
        start(at: number, offset: number) {
          sources.push(Object.assign(record, { url: node.buffer?.url ?? '', at, offset }));
        },
        stop() {
          record.stopped = true;
        },
      };
      const record: Source = { url: '', stopped: false };
      return node;
    }
  }
  vi.stubGlobal('AudioContext', Context);
  // The output timestamp and the frames are read at performance time 1000 ms (a reading of the future
  // or of long ago is not believed: src/audio/capture/context-clock.ts).
  vi.spyOn(performance, 'now').mockReturnValue(1000);
  vi.stubGlobal('fetch', async (url: string) => new Response(new TextEncoder().encode(url)));

  let onFrame: ((now: number, meta: { expectedDisplayTime: number; mediaTime: number }) => void) | null =
    null;
  let time = 0;
  class Clip extends EventTarget {
    muted = false;
    playbackRate = 1;
    paused = true;
    ended = false;
    seeking = false;
    error = null;
    duration = 12;
    get currentTime() {
      return time;
    }
    /** A seek completes after the caller's task, as a media element's does. */
    set currentTime(t: number) {
      time = t;
      this.seeking = true;
      queueMicrotask(() => {
        this.seeking = false;
        this.dispatchEvent(new Event('seeked'));
      });
    }
    async play() {
      this.paused = false;
    }
    pause() {
      this.paused = true;
      this.dispatchEvent(new Event('pause'));
    }
    requestVideoFrameCallback(cb: typeof onFrame) {
      onFrame = cb;
      return 1;
    }
  }
  const video = new Clip();
  /** The clip shows clip time `m` heard at context time `c` (the render clock is there too). */
  const frame = (c: number, m: number) => {
    clock.t = c;
    time = m;
    onFrame?.(0, { expectedDisplayTime: 1000, mediaTime: m });
  };
  return { sources, video: video as unknown as HTMLVideoElement, frame };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('watch my dub: a seek while playing', () => {
  it('drops what was scheduled and starts the take under the new position part way in, the next at its window', async () => {
    const { sources, video, frame } = fakes({ '/clip.mp4': 12, 'blob:a': 2, 'blob:b': 2, 'blob:c': 2 });
    const plan = planMix(
      [
        { id: 'a', startSeconds: 1.2, endSeconds: 2.6, takeUrl: 'blob:a' },
        { id: 'b', startSeconds: 5.2, endSeconds: 6.6, takeUrl: 'blob:b' },
        { id: 'c', startSeconds: 9.2, endSeconds: 10.6, takeUrl: 'blob:c' },
      ],
      0.2,
    );
    const player = new DubPlayer();
    await player.load({ video: '/clip.mp4', background: null, plan });
    expect(player.state.value).toBe('ready');
    await player.play(video);
    expect(player.state.value).toBe('playing');
    // 15 fps from context time 10: take a (clip 1 s) is scheduled for context time 11.
    for (let i = 0; i <= 14; i++) frame(10 + i / 15, i / 15);
    const a = sources.find((s) => s.url === 'blob:a');
    expect(a?.at).toBeCloseTo(11, 6);
    expect(a?.stopped).toBe(false);

    await player.seekTo(video, 5.5);
    expect(a?.stopped, 'the take scheduled before the seek').toBe(true);
    expect(sources.filter((s) => s.url === '/clip.mp4').every((s) => s.stopped)).toBe(true);
    for (let i = 0; i <= 3; i++) frame(20 + i / 15, 5.5 + i / 15);
    const b = sources.filter((s) => s.url === 'blob:b');
    expect(b).toHaveLength(1);
    // Started at once (20 ms ahead of the render clock), from where the clip is then: 0.5 s into it.
    const now = 20 + 0.02;
    expect(b[0].at).toBeCloseTo(now, 6);
    expect(b[0].offset).toBeCloseTo(5.5 + 0.02 - 5, 6);
    // The bed starts again from the new position.
    const bed = sources.filter((s) => s.url === '/clip.mp4' && !s.stopped);
    expect(bed).toHaveLength(1);
    expect(bed[0].offset).toBeCloseTo(5.52, 6);
    // Take c is scheduled at its own window on the new clock, from its start.
    for (let i = 4; i <= 56; i++) frame(20 + i / 15, 5.5 + i / 15);
    const c = sources.find((s) => s.url === 'blob:c');
    expect(c?.at).toBeCloseTo(20 + (9 - 5.5), 6);
    expect(c?.offset).toBe(0);
    // A seek back brings take a again, from its start.
    await player.seekTo(video, 0);
    for (let i = 0; i <= 14; i++) frame(30 + i / 15, i / 15);
    const again = sources.filter((s) => s.url === 'blob:a');
    expect(again).toHaveLength(2);
    expect(again[1].at).toBeCloseTo(31, 6);
    expect(again[1].offset).toBe(0);
    const schedule = player.schedule.value;
    expect(schedule?.takes.map((t) => [t.lineId, Number(t.offset.toFixed(2))])).toEqual([
      ['a', 0],
      ['b', 0.52],
      ['c', 0],
      ['a', 0],
    ]);
    await player.dispose();
  });

  it('plays from where the seek bar was left: the take under it part way in', async () => {
    const { sources, video, frame } = fakes({ '/clip.mp4': 12, 'blob:b': 2 });
    const plan = planMix([{ id: 'b', startSeconds: 5.2, endSeconds: 6.6, takeUrl: 'blob:b' }], 0.2);
    const player = new DubPlayer();
    await player.load({ video: '/clip.mp4', background: null, plan });
    await player.play(video, 6);
    expect(video.currentTime).toBe(6);
    for (let i = 0; i <= 2; i++) frame(10 + i / 15, 6 + i / 15);
    const b = sources.filter((s) => s.url === 'blob:b');
    expect(b).toHaveLength(1);
    expect(b[0].at).toBeCloseTo(10.02, 6);
    expect(b[0].offset).toBeCloseTo(1.02, 6);
    await player.dispose();
  });
});
