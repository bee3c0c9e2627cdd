import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderDubVideo } from '../../server/renders/dub-render';
import { RenderQueue } from '../../server/renders/render-queue';

/** A job that runs until released, recording how many run at once. */
function gate() {
  let release = () => {};
  const done = new Promise<void>((r) => {
    release = r;
  });
  return { done, release };
}

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

  it('an aborted signal stops the ffmpeg render and writes no video', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-abort-'));
    const out = path.join(dir, 'dub.mp4');
    const stop = new AbortController();
    stop.abort();
    try {
      await expect(
        renderDubVideo({
          video: path.resolve('demo/films/the-rehearsal/video.mp4'),
          background: null,
          durationMs: 3000,
          actor: [],
          dubbed: [],
          takes: [],
          out,
          signal: stop.signal,
        }),
      ).rejects.toMatchObject({ name: 'AbortError' });
      expect(fs.existsSync(out)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
