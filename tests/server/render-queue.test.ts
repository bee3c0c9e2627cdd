import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ffmpeg, probeMedia } from '../../server/films/ffmpeg';
import { type DubRenderInput, renderDubVideo } from '../../server/renders/dub-render';
import { RenderQueue } from '../../server/renders/render-queue';

/** A job that runs until released, recording how many run at once. */
function gate() {
  let release = () => {};
  const done = new Promise<void>((r) => {
    release = r;
  });
  return { done, release };
}

/** A render of `video`'s first 60 s with its own audio only, into `dir`/dub.mp4. */
const renderOf = (video: string, dir: string, signal?: AbortSignal): DubRenderInput => ({
  video,
  background: null,
  durationMs: 60_000,
  actor: [],
  dubbed: [],
  takes: [],
  out: path.join(dir, 'dub.mp4'),
  signal,
});

describe('the render queue', () => {
  it('runs at most `concurrency` jobs, one per run, and ignores a run asked for again while it waits', async () => {
    const q = new RenderQueue(2);
    let running = 0;
    let most = 0;
    const gates = new Map<string, ReturnType<typeof gate>>();
    const ran: string[] = [];
    const job = (id: string) => async () => {
      running++;
      most = Math.max(most, running);
      ran.push(id);
      const g = gate();
      gates.set(id, g);
      await g.done;
      running--;
    };
    for (const id of ['a', 'b', 'c', 'c', 'd']) q.enqueue(id, job(id));
    expect(q.size).toBe(4); // c once
    expect(ran).toEqual(['a', 'b']);
    const idle = q.idle();
    gates.get('a')?.release();
    await new Promise((r) => setImmediate(r));
    expect(ran).toEqual(['a', 'b', 'c']);
    for (const id of ['b', 'c']) gates.get(id)?.release();
    await new Promise((r) => setImmediate(r));
    gates.get('d')?.release();
    await idle;
    expect(ran).toEqual(['a', 'b', 'c', 'd']);
    expect(most).toBe(2);
    expect(q.size).toBe(0);
  });

  it('a failing job does not stop the queue; close() drops the waiting ones', async () => {
    const q = new RenderQueue(1);
    const ran: string[] = [];
    const g = gate();
    q.enqueue('x', async () => {
      ran.push('x');
      throw new Error('ffmpeg exited with 1');
    });
    q.enqueue('y', async () => {
      ran.push('y');
      await g.done;
    });
    q.enqueue('z', async () => {
      ran.push('z');
    });
    await new Promise((r) => setImmediate(r));
    expect(ran).toEqual(['x', 'y']);
    const closed = q.close();
    g.release();
    await closed;
    expect(ran).toEqual(['x', 'y']);
  });

  it('close() aborts the running job through the queue signal instead of waiting for it', async () => {
    const q = new RenderQueue(1);
    let started = () => {};
    const running = new Promise<void>((r) => {
      started = r;
    });
    let sawAbort = false;
    q.enqueue('long', async () => {
      started();
      await new Promise<void>((resolve) =>
        q.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      sawAbort = true;
    });
    await running;
    expect(q.signal.aborted).toBe(false);
    await q.close();
    expect(sawAbort).toBe(true);
    expect(q.size).toBe(0);
  });

  it('an abort before the start runs no ffmpeg and writes no video', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-abort-'));
    const stop = new AbortController();
    stop.abort();
    try {
      await expect(
        renderDubVideo(renderOf(path.resolve('demo/films/the-rehearsal/video.mp4'), dir, stop.signal)),
      ).rejects.toMatchObject({ name: 'AbortError' });
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an abort while ffmpeg writes settles after ffmpeg is gone and leaves no partial video', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-abort-'));
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    try {
      // A picture that is not H.264, so the render encodes it: long enough to be stopped midway.
      const video = path.join(dir, 'film.avi');
      await ffmpeg([
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=640x360:rate=25:duration=60',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=220:sample_rate=44100:duration=60',
        '-c:v',
        'mpeg4',
        '-q:v',
        '5',
        '-c:a',
        'pcm_s16le',
        video,
      ]);
      const stop = new AbortController();
      // Stopped as soon as ffmpeg has created its output: the moment a careless render leaves it behind.
      const watcher = fs.watch(out, () => {
        if (fs.readdirSync(out).length > 0) stop.abort();
      });
      try {
        await expect(renderDubVideo(renderOf(video, out, stop.signal))).rejects.toMatchObject({
          name: 'AbortError',
        });
      } finally {
        watcher.close();
      }
      expect(stop.signal.aborted).toBe(true);
      expect(fs.readdirSync(out)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a finished render is whole under its name, with no temporary file beside it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-whole-'));
    try {
      await renderDubVideo({
        ...renderOf(path.resolve('demo/films/the-rehearsal/video.mp4'), dir),
        durationMs: 2000,
      });
      expect(fs.readdirSync(dir)).toEqual(['dub.mp4']);
      const probe = await probeMedia(path.join(dir, 'dub.mp4'));
      expect(probe.hasVideo && probe.hasAudio).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
