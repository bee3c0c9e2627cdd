/**
 * The capture worklet (src/audio/worklet/capture-processor.ts) driven quantum by quantum, as the
 * browser's audio thread would: the AudioWorklet globals it reads are stubbed, the module is loaded
 * fresh for each test, and what it posts to the page and to the worker is recorded.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RENDER_QUANTUM } from '../../../src/audio/constants';
import type { WorkletToPage } from '../../../src/audio/worklet/messages';

const RATE = 48000;
const CHUNK = RENDER_QUANTUM * 16;

interface Chunk {
  startFrame: number;
  samples: Float32Array;
}

interface Processor {
  process(inputs: Float32Array[][]): boolean;
}

const scope = globalThis as unknown as Record<string, unknown>;

async function loadProcessor() {
  const toPage: WorkletToPage[] = [];
  const chunks: Chunk[] = [];
  let ctor: (new () => Processor) | null = null;
  scope.sampleRate = RATE;
  scope.currentFrame = 0;
  scope.AudioWorkletProcessor = class {
    readonly port = {
      onmessage: null as ((e: { data: unknown }) => void) | null,
      postMessage: (m: WorkletToPage) => toPage.push({ ...m }),
    };
  };
  scope.registerProcessor = (_name: string, c: new () => Processor) => {
    ctor = c;
  };
  vi.resetModules();
  // A path the type checker does not follow: the worklet is checked against the AudioWorklet scope's
  // types (tsconfig.worker.json), not this project's DOM ones.
  const worklet = '../../../src/audio/worklet/capture-processor';
  await import(/* @vite-ignore */ worklet);
  if (!ctor) throw new Error('capture-processor.ts registered no processor');
  const node = new (ctor as new () => Processor)() as Processor & {
    port: { onmessage: (e: { data: unknown }) => void };
  };
  const worker = {
    onmessage: null as ((e: { data: unknown }) => void) | null,
    postMessage(m: { type: string; buffer?: ArrayBuffer; frames?: number; startFrame?: number }) {
      if (m.type !== 'pcm' || !m.buffer) return;
      chunks.push({
        startFrame: m.startFrame ?? -1,
        samples: new Float32Array(m.buffer).slice(0, m.frames),
      });
    },
  };
  const page = (data: unknown) => node.port.onmessage({ data });
  page({ type: 'connect', port: worker });
  page({ type: 'start' });
  let value = 0;
  /** One render quantum at `frame`, with input (a running count, so every sample is traceable) or none. */
  const quantum = (frame: number, withInput = true) => {
    scope.currentFrame = frame;
    const ch = new Float32Array(RENDER_QUANTUM);
    for (let i = 0; i < ch.length; i++) ch[i] = withInput ? ++value : 0;
    expect(node.process(withInput ? [[ch]] : [[]])).toBe(true);
  };
  /** Hands every buffer the worker received back to the worklet's pool. */
  const recycleAll = () => {
    for (let i = 0; i < chunks.length; i++) {
      worker.onmessage?.({ data: { type: 'recycle', buffer: new ArrayBuffer(CHUNK * 4) } });
    }
  };
  const stop = () => {
    page({ type: 'stop' });
    return toPage.find((m) => m.type === 'stopped');
  };
  return { quantum, stop, chunks, toPage, recycleAll };
}

afterEach(() => {
  for (const k of ['sampleRate', 'currentFrame', 'AudioWorkletProcessor', 'registerProcessor'])
    delete scope[k];
});

describe('capture worklet', () => {
  it('forwards every delivered frame once, each chunk stamped with the frame of its first sample', async () => {
    const w = await loadProcessor();
    for (let q = 0; q < 40; q++) w.quantum(1000 + q * RENDER_QUANTUM);
    expect(w.stop()).toEqual({ type: 'stopped', frames: 40 * RENDER_QUANTUM, dropped: 0, skipped: 0 });
    expect(w.chunks.map((c) => c.startFrame)).toEqual([1000, 1000 + CHUNK, 1000 + 2 * CHUNK]);
    const all = w.chunks.flatMap((c) => [...c.samples]);
    expect(all).toEqual(Array.from({ length: 40 * RENDER_QUANTUM }, (_, i) => i + 1));
  });

  it('counts quanta the browser did not deliver, and a clock that moved on, as skipped, not dropped', async () => {
    const w = await loadProcessor();
    w.quantum(0);
    w.quantum(RENDER_QUANTUM, false); // no input in this quantum
    w.quantum(2 * RENDER_QUANTUM, false);
    w.quantum(3 * RENDER_QUANTUM);
    w.quantum(10 * RENDER_QUANTUM); // six quanta never rendered
    const stopped = w.stop();
    expect(stopped).toMatchObject({ dropped: 0, skipped: 8 * RENDER_QUANTUM });
    // The worker sees exactly these frames missing between the chunks (it fills them with silence).
    const starts = w.chunks.map((c) => [c.startFrame, c.samples.length]);
    expect(starts).toEqual([
      [0, RENDER_QUANTUM],
      [3 * RENDER_QUANTUM, RENDER_QUANTUM],
      [10 * RENDER_QUANTUM, RENDER_QUANTUM],
    ]);
  });

  it('reports the final counts when it stops, also what came after the last level message', async () => {
    const w = await loadProcessor();
    // 13 quanta reach the first level message (every 1/30 s = 1600 frames); the gap comes after it.
    for (let q = 0; q < 13; q++) w.quantum(q * RENDER_QUANTUM);
    w.quantum(20 * RENDER_QUANTUM);
    expect(w.toPage.filter((m) => m.type === 'level')).toEqual([
      expect.objectContaining({ frames: 13 * RENDER_QUANTUM, dropped: 0, skipped: 0 }),
    ]);
    expect(w.stop()).toMatchObject({ skipped: 7 * RENDER_QUANTUM, frames: 14 * RENDER_QUANTUM });
  });

  it('drops and counts frames once the worker has not handed buffers back for ~4 s, and recovers when it does', async () => {
    const w = await loadProcessor();
    const quanta = Math.ceil((5 * RATE) / RENDER_QUANTUM);
    for (let q = 0; q < quanta; q++) w.quantum(q * RENDER_QUANTUM);
    const pooled = w.chunks.length * CHUNK;
    expect(pooled / RATE).toBeGreaterThan(4);
    w.recycleAll();
    w.quantum(quanta * RENDER_QUANTUM);
    const stopped = w.stop();
    expect(stopped).toMatchObject({ skipped: 0, dropped: quanta * RENDER_QUANTUM - pooled });
    expect(w.chunks.at(-1)?.startFrame).toBe(quanta * RENDER_QUANTUM);
  });
});
