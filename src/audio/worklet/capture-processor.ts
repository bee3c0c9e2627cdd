/**
 * AudioWorklet processor: copies the microphone into pooled buffers and forwards them over its own
 * MessagePort straight to the encoder worker (never through the page); the page gets only a level
 * and frame count at <= LEVEL_MESSAGE_HZ. Nothing is allocated inside process(): buffers come from a
 * pool the worker refills with `recycle`, and message objects and transfer lists are reused
 * (postMessage clones them, so mutating them afterwards is safe).
 *
 * If the worker falls behind and the pool runs dry, frames are dropped and counted; every chunk
 * carries the frame index of its first sample, so the worker keeps the timeline exact by inserting
 * silence instead of shifting the rest of the take. Frames the browser never delivered (a render
 * quantum without input, or a clock that moved on by more than a quantum) are counted apart as
 * `skipped`: the worker fills them with silence too, but no part of the pipeline lost them.
 */
import { LEVEL_MESSAGE_HZ, RENDER_QUANTUM } from '../constants';
import type { PageToWorklet, WorkerToWorklet } from './messages';
import { CAPTURE_PROCESSOR } from './messages';

/**
 * 16 render quanta (~43 ms at 48 kHz) per message; 96 buffers (768 KB) give the worker ~4 s of
 * slack, for a worker held up by a busy phone or a loaded kiosk.
 */
const CHUNK_FRAMES = RENDER_QUANTUM * 16;
const POOL_SIZE = 96;

class CaptureProcessor extends AudioWorkletProcessor {
  private workerPort: MessagePort | null = null;
  private recording = false;
  private stopped = false;
  /** Views on pooled buffers, made when a buffer comes back (outside process()). */
  private readonly pool: Float32Array[] = [];
  private current: Float32Array | null = null;
  private fill = 0;
  private chunkStart = 0;
  private frames = 0;
  private dropped = 0;
  private skipped = 0;
  /** Frame after the last one that came with input (captured or dropped); -1 before the first. */
  private inputEnd = -1;
  private sumSquares = 0;
  private peak = 0;
  private levelFrames = 0;
  private readonly levelEvery = Math.round(sampleRate / LEVEL_MESSAGE_HZ);
  private readonly pcmMessage = {
    type: 'pcm' as const,
    buffer: null as ArrayBuffer | null,
    frames: 0,
    startFrame: 0,
    sampleRate,
  };
  private readonly transfer: ArrayBuffer[] = [];
  private readonly levelMessage = {
    type: 'level' as const,
    rms: 0,
    peak: 0,
    frames: 0,
    dropped: 0,
    skipped: 0,
  };

  constructor() {
    super();
    for (let i = 0; i < POOL_SIZE; i++) this.pool.push(new Float32Array(CHUNK_FRAMES));
    this.port.onmessage = (e: MessageEvent<PageToWorklet>) => this.onPageMessage(e.data);
  }

  private onPageMessage(msg: PageToWorklet): void {
    if (msg.type === 'connect') {
      this.workerPort = msg.port;
      this.workerPort.onmessage = (e: MessageEvent<WorkerToWorklet>) => {
        if (e.data.type === 'recycle') this.pool.push(new Float32Array(e.data.buffer));
      };
    } else if (msg.type === 'start') {
      this.recording = true;
      this.port.postMessage({ type: 'started', firstFrame: currentFrame, sampleRate });
    } else if (msg.type === 'stop' && this.recording) {
      this.recording = false;
      this.stopped = true;
      this.send();
      // Every frame before currentFrame has been through process(): that is where the take ends.
      this.workerPort?.postMessage({ type: 'end', frame: currentFrame, dropped: this.dropped });
      this.port.postMessage({
        type: 'stopped',
        frames: this.frames,
        dropped: this.dropped,
        skipped: this.skipped,
      });
    }
  }

  process(inputs: Float32Array[][]): boolean {
    if (this.stopped) return false; // let the node be collected
    const channels = inputs[0];
    if (!this.recording || !channels || channels.length === 0) return true;
    const length = channels[0].length;
    const count = channels.length;
    const frame0 = currentFrame;
    if (this.inputEnd >= 0 && frame0 > this.inputEnd) {
      // Frames missing since the last input: the chunk so far ends here, so the next one is stamped
      // with its own first frame and the worker fills the gap (appending would shift the rest).
      this.skipped += frame0 - this.inputEnd;
      this.send();
    }
    this.inputEnd = frame0 + length;
    for (let i = 0; i < length; i++) {
      let v = channels[0][i];
      // Mix stereo microphones down in place of allocating a mono copy.
      if (count > 1) {
        for (let c = 1; c < count; c++) v += channels[c][i];
        v /= count;
      }
      const a = v < 0 ? -v : v;
      if (a > this.peak) this.peak = a;
      this.sumSquares += v * v;
      if (!this.current) {
        const view = this.pool.pop();
        if (!view) {
          this.dropped++;
          continue;
        }
        this.current = view;
        this.fill = 0;
        this.chunkStart = frame0 + i;
      }
      this.current[this.fill++] = v;
      if (this.fill === CHUNK_FRAMES) this.send();
    }
    this.frames += length;
    this.levelFrames += length;
    if (this.levelFrames >= this.levelEvery) {
      const m = this.levelMessage;
      m.rms = Math.sqrt(this.sumSquares / this.levelFrames);
      m.peak = this.peak;
      m.frames = this.frames;
      m.dropped = this.dropped;
      m.skipped = this.skipped;
      this.port.postMessage(m);
      this.levelFrames = 0;
      this.sumSquares = 0;
      this.peak = 0;
    }
    return true;
  }

  private send(): void {
    if (!this.current || !this.workerPort) return;
    const m = this.pcmMessage;
    m.buffer = this.current.buffer as ArrayBuffer;
    m.frames = this.fill;
    m.startFrame = this.chunkStart;
    this.transfer[0] = m.buffer;
    this.workerPort.postMessage(m, this.transfer);
    this.current = null;
    this.fill = 0;
  }
}

registerProcessor(CAPTURE_PROCESSOR, CaptureProcessor);
