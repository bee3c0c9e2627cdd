import * as Comlink from 'comlink';
import type { Remote } from 'comlink';
import type { PageToWorklet, WorkletToPage } from '../worklet/messages';
import { CAPTURE_PROCESSOR } from '../worklet/messages';
import processorUrl from '../worklet/capture-processor.ts?worker&url';
import type { EncoderApi, TakeCallbacks } from '../../workers/encoder-api';
import type { TakeOptions, TakeSummary } from '../../workers/encoder-types';
import { type ContextTimestamp, heardTimestamp, outputLatency, outputTimestamp } from './context-clock';
import { inputLatencyOf, openMicrophone } from './microphone';
import type { CaptureClock, LevelReading, Recorder } from './recorder';

/**
 * The AudioWorklet recorder. The page wires the graph and the ports but never sees a sample: PCM goes
 * from the processor to the worker over a MessageChannel whose ends are transferred to each.
 */
export class WorkletRecorder implements Recorder {
  readonly kind = 'worklet' as const;
  readonly clock: CaptureClock;
  private node: AudioWorkletNode | null = null;
  private readonly listeners = new Set<(l: LevelReading) => void>();
  private encoder: Remote<EncoderApi> | null = null;
  private stopped: Promise<void> = Promise.resolve();
  /** The clock's reading when this take's microphone frames first reached the worklet. */
  private flowingAt: ContextTimestamp | null = null;
  private markStopped: () => void = () => {};

  private constructor(
    private readonly context: AudioContext,
    /** The microphone's stream, stopped on close; null for a recorder fed by another node. */
    private readonly stream: MediaStream | null,
    private readonly source: AudioNode,
    private readonly sink: GainNode,
  ) {
    this.clock = {
      // A microphone's frames wait for a clock that falls behind (heardTimestamp); a node of this
      // context (fromNode) plays on the context's clock itself.
      outputTimestamp: () =>
        stream && this.flowingAt
          ? heardTimestamp(this.flowingAt, outputTimestamp(context))
          : outputTimestamp(context),
      outputLatency: outputLatency(context),
      inputLatency: stream ? inputLatencyOf(stream, context) : 0,
    };
  }

  static async create(): Promise<WorkletRecorder> {
    const stream = await openMicrophone();
    // latencyHint 'playback' gives larger render buffers: fewer wake-ups on slow kiosks, and timing
    // is handled by the explicit clock rather than by low latency.
    const context = new AudioContext({ latencyHint: 'playback' });
    return WorkletRecorder.wire(context, context.createMediaStreamSource(stream), stream);
  }

  /**
   * The same capture path fed by `source`, a node of `context`, instead of the microphone: a decoded
   * recording played into it (tests/engines/wpe/, in an engine without getUserMedia).
   */
  static fromNode(context: AudioContext, source: AudioNode): Promise<WorkletRecorder> {
    return WorkletRecorder.wire(context, source, null);
  }

  private static async wire(
    context: AudioContext,
    source: AudioNode,
    stream: MediaStream | null,
  ): Promise<WorkletRecorder> {
    await context.audioWorklet.addModule(processorUrl);
    // The processor needs a path to the destination to be pulled; a zero gain keeps it silent.
    const sink = context.createGain();
    sink.gain.value = 0;
    sink.connect(context.destination);
    return new WorkletRecorder(context, stream, source, sink);
  }

  get sampleRate(): number {
    return this.context.sampleRate;
  }

  async startTake(
    encoder: Remote<EncoderApi>,
    options: TakeOptions,
    callbacks: TakeCallbacks,
  ): Promise<void> {
    if (this.context.state !== 'running') await this.context.resume();
    const node = new AudioWorkletNode(this.context, CAPTURE_PROCESSOR, {
      numberOfInputs: 1,
      numberOfOutputs: 1,
      channelCount: 1,
      channelCountMode: 'explicit',
    });
    this.node = node;
    this.encoder = encoder;
    this.flowingAt = null;
    this.stopped = new Promise((resolve) => {
      this.markStopped = resolve;
    });
    let flowing: () => void = () => {};
    const captureFlows = new Promise<void>((resolve) => {
      flowing = resolve;
    });
    node.port.onmessage = (e: MessageEvent<WorkletToPage>) => {
      const msg = e.data;
      if (msg.type === 'level') {
        if (msg.frames > 0) flowing();
        for (const l of this.listeners) l(msg);
      } else if (msg.type === 'stopped') {
        // The final counts: frames dropped or skipped after the last level message show only here.
        const last = { rms: 0, peak: 0, frames: msg.frames, dropped: msg.dropped, skipped: msg.skipped };
        for (const l of this.listeners) l(last);
        this.markStopped();
      }
    };
    const channel = new MessageChannel();
    await encoder.startTake(
      Comlink.transfer(channel.port2, [channel.port2]),
      options,
      Comlink.proxy(callbacks),
    );
    node.port.postMessage({ type: 'connect', port: channel.port1 } satisfies PageToWorklet, [channel.port1]);
    this.source.connect(node);
    node.connect(this.sink);
    node.port.postMessage({ type: 'start' } satisfies PageToWorklet);
    // Resolve only once microphone frames reach the worklet. Firefox holds a running context's clock
    // still for a second or more while a newly connected microphone starts (currentTime and
    // getOutputTimestamp stand still), then goes on from where it stood: a clip anchor taken in that
    // time (src/app/lib/video-anchor.ts) would place every window late by the stall, and the last
    // line of a take ended up incomplete (tests/engines/journeys.ts).
    await captureFlows;
    this.flowingAt = outputTimestamp(this.context);
  }

  async finishTake(): Promise<TakeSummary> {
    const node = this.node;
    const encoder = this.encoder;
    if (!node || !encoder) throw new Error('finishTake without a running take.');
    node.port.postMessage({ type: 'stop' } satisfies PageToWorklet);
    await this.stopped;
    this.source.disconnect(node);
    node.disconnect();
    this.node = null;
    return encoder.finishTake();
  }

  onLevel(listener: (level: LevelReading) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.node?.port.postMessage({ type: 'stop' } satisfies PageToWorklet);
    this.node?.disconnect();
    for (const t of this.stream?.getTracks() ?? []) t.stop();
    this.listeners.clear();
    if (this.context.state !== 'closed') await this.context.close();
  }
}
