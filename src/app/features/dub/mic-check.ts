import { signal } from '@preact/signals-react';
import { MicrophoneError, type MicrophoneReason, openMicrophone } from '../../../audio/capture/microphone';
import { TOO_QUIET_PEAK_DBFS } from '../../../audio/scoring/subscores';

/**
 * The microphone check before a take: the learner says a few words and sees
 * "we hear you" once the microphone carries a voice at a level the scoring accepts, or is told what to
 * check when it does not. It opens the microphone on its own and closes it at its verdict, so a take
 * afterwards opens it as always (dub-session.ts); it never touches a take.
 */
export type MicCheckState =
  | { phase: 'idle' }
  | { phase: 'listening' }
  | { phase: 'heard' }
  | { phase: 'quiet' }
  | { phase: 'failed'; reason: MicrophoneReason };

/** The loudest sample of the last moment of input, 0..1. */
export interface LevelProbe {
  peak(): number;
  close(): void;
}

export interface MicCheckDeps {
  open?: () => Promise<MediaStream>;
  probe?: (stream: MediaStream) => LevelProbe;
}

/** How often the level is read. */
export const READ_MS = 100;
/**
 * Readings at or above the level below which a take counts as too quiet (TOO_QUIET_PEAK_DBFS in
 * src/audio/scoring/subscores.ts) needed to say "we hear you": 3 of them, about a syllable, so one
 * knock or click does not pass.
 */
export const HEARD_READINGS = 3;
/** Without a voice for this long the check says what to look at. */
export const GIVE_UP_MS = 8_000;

const HEARD_PEAK = 10 ** (TOO_QUIET_PEAK_DBFS / 20);

/** The browser's own level: an analyser on the microphone stream. */
function analyserProbe(stream: MediaStream): LevelProbe {
  const context = new AudioContext();
  const source = context.createMediaStreamSource(stream);
  const analyser = context.createAnalyser();
  analyser.fftSize = 2048;
  source.connect(analyser);
  const buffer = new Float32Array(analyser.fftSize);
  return {
    peak() {
      analyser.getFloatTimeDomainData(buffer);
      let max = 0;
      for (const v of buffer) max = Math.max(max, Math.abs(v));
      return max;
    },
    close() {
      source.disconnect();
      void context.close();
    },
  };
}

export class MicCheck {
  readonly state = signal<MicCheckState>({ phase: 'idle' });
  private stopRun: (() => void) | null = null;
  /** Counts starts and stops: a start whose permission prompt outlived a stop or a newer start ends there. */
  private runs = 0;

  constructor(private readonly deps: MicCheckDeps = {}) {}

  async start(): Promise<void> {
    this.stop();
    const run = ++this.runs;
    this.state.value = { phase: 'listening' };
    let stream: MediaStream;
    try {
      stream = await (this.deps.open ?? openMicrophone)();
    } catch (e) {
      if (run === this.runs)
        this.state.value = { phase: 'failed', reason: e instanceof MicrophoneError ? e.reason : 'busy' };
      return;
    }
    // Stopped (or started again) while the permission prompt was open.
    if (run !== this.runs) {
      for (const t of stream.getTracks()) t.stop();
      return;
    }
    const probe = (this.deps.probe ?? analyserProbe)(stream);
    let loud = 0;
    const started = Date.now();
    const release = () => {
      clearInterval(timer);
      probe.close();
      for (const t of stream.getTracks()) t.stop();
      this.stopRun = null;
    };
    const timer = setInterval(() => {
      if (probe.peak() >= HEARD_PEAK) loud++;
      if (loud >= HEARD_READINGS) {
        release();
        this.state.value = { phase: 'heard' };
      } else if (Date.now() - started >= GIVE_UP_MS) {
        release();
        this.state.value = { phase: 'quiet' };
      }
    }, READ_MS);
    this.stopRun = release;
  }

  /** Ends a running check and releases the microphone (a take is starting, or the page is left). */
  stop(): void {
    this.runs++;
    this.stopRun?.();
    if (this.state.peek().phase === 'listening') this.state.value = { phase: 'idle' };
  }
}
