import * as Comlink from 'comlink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EncoderApi } from '../../../src/workers/encoder-api';
import { EncoderBridge } from '../../../src/workers/encoder-bridge';
import type { TakeSummary } from '../../../src/workers/encoder-types';

/**
 * A stand-in for the encoder worker: one end of a real MessageChannel plays the Worker, the other end
 * has a small EncoderApi exposed with Comlink, so every call really crosses a message port.
 */
interface FakeWorker {
  worker: Worker;
  terminated: boolean;
  /** finishTake calls waiting on the worker side; resolve one to answer it. */
  finishing: ((s: TakeSummary) => void)[];
  /** Calls the worker side received (in order). */
  calls: string[];
}

const open: MessagePort[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const p of open.splice(0)) p.close();
});

function fakeWorkers() {
  const spawned: FakeWorker[] = [];
  const spawn = (): Worker => {
    const { port1, port2 } = new MessageChannel();
    open.push(port1, port2);
    const fake: FakeWorker = {
      worker: null as unknown as Worker,
      terminated: false,
      finishing: [],
      calls: [],
    };
    const api: Pick<EncoderApi, 'finishTake' | 'abortTake'> & { ping(n: number): number } = {
      ping: (n) => {
        fake.calls.push(`ping ${n}`);
        return n + 1;
      },
      finishTake: () => {
        fake.calls.push('finishTake');
        return new Promise<TakeSummary>((resolve) => fake.finishing.push(resolve));
      },
      abortTake: () => {
        fake.calls.push('abortTake');
      },
    };
    Comlink.expose(api, port2);
    fake.worker = Object.assign(port1, {
      terminate() {
        fake.terminated = true;
        port1.close();
        port2.close();
      },
    }) as unknown as Worker;
    spawned.push(fake);
    return fake.worker;
  };
  return { spawned, spawn };
}

/** The fake worker's extra `ping` (not part of EncoderApi) for a cheap round trip. */
type PingApi = { ping(n: number): Promise<number> };
const ping = (api: unknown, n: number) => (api as PingApi).ping(n);

const summary = (takeId: string): TakeSummary =>
  ({ takeId, windows: 1, skipped: [], capturedSeconds: 1, droppedFrames: 0 }) as unknown as TakeSummary;

/** One real turn of the event loop (a port message), whether or not timers are faked. */
function macrotask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port2.onmessage = () => {
      port1.close();
      port2.close();
      resolve();
    };
    port1.postMessage(0);
  });
}

/** Waits until `check` holds, letting Comlink's messages cross the ports meanwhile. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await macrotask();
  if (!check()) throw new Error('condition not reached after 200 event-loop turns');
}

describe('EncoderBridge', () => {
  it('starts no worker until the first run, then answers through Comlink', async () => {
    const { spawned, spawn } = fakeWorkers();
    const bridge = new EncoderBridge(spawn);
    expect(bridge.running).toBe(false);
    expect(spawned).toHaveLength(0);

    await expect(bridge.run((api) => ping(api, 41))).resolves.toBe(42);
    expect(spawned).toHaveLength(1);
    expect(spawned[0].calls).toEqual(['ping 41']);
    expect(bridge.running).toBe(true);

    await expect(bridge.run((api) => ping(api, 1))).resolves.toBe(2);
    expect(spawned).toHaveLength(1); // the same worker serves the next run
    bridge.terminate();
    expect(spawned[0].terminated).toBe(true);
  });

  it('an already aborted signal rejects with its reason and spawns nothing', async () => {
    const { spawned, spawn } = fakeWorkers();
    const bridge = new EncoderBridge(spawn);
    const controller = new AbortController();
    const reason = new Error('learner left the page');
    controller.abort(reason);
    const task = vi.fn((api: Comlink.Remote<EncoderApi>) => ping(api, 1));
    await expect(bridge.run(task, controller.signal)).rejects.toBe(reason);
    expect(task).not.toHaveBeenCalled();
    expect(spawned).toHaveLength(0);
    expect(bridge.running).toBe(false);
  });

  it('aborting a running task terminates the worker, rejects with the reason, and the next run gets a fresh worker', async () => {
    const { spawned, spawn } = fakeWorkers();
    const bridge = new EncoderBridge(spawn);
    const controller = new AbortController();
    const running = bridge.run((api) => api.finishTake(), controller.signal);
    await until(() => spawned[0]?.calls.includes('finishTake'));

    const reason = new DOMException('stop pressed', 'AbortError');
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
    expect(spawned[0].terminated).toBe(true);
    expect(bridge.running).toBe(false);

    await expect(bridge.run((api) => ping(api, 7))).resolves.toBe(8);
    expect(spawned).toHaveLength(2);
    expect(spawned[1].terminated).toBe(false);
    expect(spawned[1].calls).toEqual(['ping 7']);
  });

  it('an abort without a reason rejects with an AbortError', async () => {
    const { spawned, spawn } = fakeWorkers();
    const bridge = new EncoderBridge(spawn);
    const controller = new AbortController();
    const running = bridge.run((api) => api.finishTake(), controller.signal);
    await until(() => spawned[0]?.calls.includes('finishTake'));
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(spawned[0].terminated).toBe(true);
  });

  it('a task that fails releases the worker like one that succeeds', async () => {
    vi.useFakeTimers();
    const { spawned, spawn } = fakeWorkers();
    const bridge = new EncoderBridge(spawn);
    await expect(
      bridge.run(async (api) => {
        await ping(api, 1);
        throw new Error('bad take');
      }),
    ).rejects.toThrow('bad take');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(spawned[0].terminated).toBe(true);
  });

  it('stops the worker after 10 s without work', async () => {
    vi.useFakeTimers();
    const { spawned, spawn } = fakeWorkers();
    const bridge = new EncoderBridge(spawn);
    await bridge.run((api) => ping(api, 1));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(bridge.running).toBe(true);
    expect(spawned[0].terminated).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(bridge.running).toBe(false);
    expect(spawned[0].terminated).toBe(true);

    // After an idle stop the next run starts a new worker.
    await expect(bridge.run((api) => ping(api, 2))).resolves.toBe(3);
    expect(spawned).toHaveLength(2);
  });

  it('a new run before the idle stop keeps the worker and restarts the 10 s', async () => {
    vi.useFakeTimers();
    const { spawned, spawn } = fakeWorkers();
    const bridge = new EncoderBridge(spawn);
    await bridge.run((api) => ping(api, 1));
    await vi.advanceTimersByTimeAsync(6_000);
    await bridge.run((api) => ping(api, 2));
    await vi.advanceTimersByTimeAsync(6_000); // 12 s after the first run, 6 s after the second
    expect(bridge.running).toBe(true);
    expect(spawned).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(spawned[0].terminated).toBe(true);
  });

  it('concurrent runs share one worker and it is not stopped while any of them holds it', async () => {
    vi.useFakeTimers();
    const { spawned, spawn } = fakeWorkers();
    const bridge = new EncoderBridge(spawn);
    const long = bridge.run((api) => api.finishTake());
    const short = bridge.run((api) => ping(api, 5));
    await expect(short).resolves.toBe(6);
    await until(() => spawned[0]?.calls.includes('finishTake'));
    expect(spawned).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(30_000); // the short run is long done; the long one still holds
    expect(bridge.running).toBe(true);
    expect(spawned[0].terminated).toBe(false);

    spawned[0].finishing[0](summary('t1'));
    await expect(long).resolves.toMatchObject({ takeId: 't1' });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(spawned[0].terminated).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(spawned[0].terminated).toBe(true);
  });

  it('aborting one of two concurrent runs ends the other too instead of leaving it on a dead worker', async () => {
    const { spawned, spawn } = fakeWorkers();
    const bridge = new EncoderBridge(spawn);
    const controller = new AbortController();
    const aborted = bridge.run((api) => api.finishTake(), controller.signal);
    const bystander = bridge.run((api) => api.finishTake());
    await until(() => spawned[0]?.finishing.length === 2);
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    // The worker is gone, so the other run cannot finish: it fails now rather than never settling.
    await expect(bystander).rejects.toMatchObject({ name: 'AbortError' });
    expect(spawned[0].terminated).toBe(true);
  });

  it('a run left over from a terminated worker does not count against the next worker', async () => {
    vi.useFakeTimers();
    const { spawned, spawn } = fakeWorkers();
    const bridge = new EncoderBridge(spawn);
    let openGate = () => {};
    const gate = new Promise<void>((r) => {
      openGate = r;
    });
    // An old run that works on locally for a while and settles after its worker was terminated.
    let pinged = false;
    const old = bridge.run(async (api) => {
      await ping(api, 1);
      pinged = true;
      await gate;
      return 'old done';
    });
    const oldOutcome = old.then(
      (v) => v,
      (e: unknown) => e,
    );
    await until(() => pinged);
    bridge.terminate();

    const current = bridge.run((api) => api.finishTake());
    await until(() => spawned[1]?.calls.includes('finishTake'));
    openGate();
    // Its worker is gone: it fails as stopped, and its end must not release the new worker.
    expect(await oldOutcome).toMatchObject({ name: 'AbortError' });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(bridge.running).toBe(true);
    expect(spawned[1].terminated).toBe(false);

    spawned[1].finishing[0](summary('t2'));
    await expect(current).resolves.toMatchObject({ takeId: 't2' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(spawned[1].terminated).toBe(true);
  });
});
