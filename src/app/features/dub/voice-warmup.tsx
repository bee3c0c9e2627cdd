import type { ReadonlySignal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useRef, useState } from 'react';
import { getVoiceWarmup, saveVoiceWarmup, skipVoiceWarmup } from '../../../api/calls';
import type { VoiceWarmupState } from '../../../api/contract';
import { createRecorder } from '../../../audio/capture/create-recorder';
import { presentedContextTime } from '../../../audio/dsp/clock';
import { fact, word } from '../../../i18n';
import { EncoderBridge } from '../../../workers/encoder-bridge';
import { type Lang, lang } from '../../i18n';
import { Button } from '../../ui/button';
import styles from './voice-warmup.module.css';

/** A few seconds of the neutral line are enough for a baseline (docs/api.md, "Voice warm-up"). */
const MAX_SECONDS = 6;

type Step = 'hidden' | 'offer' | 'recording' | 'saving' | 'done' | 'skipped';

/**
 * Records one wav from the microphone until `signal` aborts or MAX_SECONDS pass, through the capture
 * path of the takes (createRecorder: the AudioWorklet, or its fallback where a browser has none, into
 * the encoder worker; docs/recording.md): the whole recording is one window on the capture clock. A
 * worker of its own, so a take started meanwhile cannot end it; the microphone is released after.
 */
async function recordWav(signal: AbortSignal): Promise<Blob> {
  const recorder = await createRecorder();
  const bridge = new EncoderBridge();
  try {
    const wav = await bridge.run(async (api) => {
      let out: ArrayBuffer | null = null;
      await recorder.startTake(
        api,
        { takeId: crypto.randomUUID(), marginSeconds: 0 },
        // onStats is called through the Comlink proxy whether or not the page passes one.
        { onWindow: (w) => (out = w.wav), onStats: () => {} },
      );
      const { clock } = recorder;
      const anchor = {
        contextTime: presentedContextTime(clock.outputTimestamp(), performance.now()),
        mediaTime: 0,
        playbackRate: 1,
        outputLatency: clock.outputLatency,
        inputLatency: clock.inputLatency,
      };
      await api.setTimeline(anchor, [{ id: 'warmup', startSeconds: 0, endSeconds: MAX_SECONDS }]);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, MAX_SECONDS * 1000);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      await recorder.finishTake();
      return out as ArrayBuffer | null;
    });
    if (!wav) throw new Error('The warm-up recording holds no audio');
    return new Blob([wav], { type: 'audio/wav' });
  } finally {
    bridge.terminate();
    await recorder.close();
  }
}

const reasonOf = (refused: VoiceWarmupState['refused']) =>
  refused === 'no_speech' || refused === 'no_pitch'
    ? fact('warmup.reason.noSpeech')
    : fact('warmup.reason.other');

/**
 * The voice warm-up before a learner's first dub: shown only while the server says
 * it was never answered (status none). Recorded, the first takes are read against the learner's own
 * voice; skipped, they are read cold and each says so. `busy`: a dub take is running (one microphone).
 */
export function VoiceWarmup({
  busy,
  onStatus,
}: {
  busy: ReadonlySignal<boolean>;
  /** Told the server's status once it is read (whether the step is offered). */
  onStatus?: (status: VoiceWarmupState['status']) => void;
}) {
  useSignals();
  const warmup = useWarmup(onStatus);
  const { step } = warmup;
  if (step === 'hidden') return null;
  const l = lang.value;
  if (step === 'done' || step === 'skipped') {
    return (
      <p className={styles.line} role="status" data-testid="voice-warmup-result" data-step={step}>
        {word(fact(step === 'done' ? 'warmup.done' : 'warmup.skipped'), l)}
      </p>
    );
  }
  return (
    <section className={styles.warmup} aria-labelledby="voice-warmup-title" data-testid="voice-warmup">
      <h2 id="voice-warmup-title">{word(fact('warmup.title'), l)}</h2>
      <p>{word(fact('warmup.why'), l)}</p>
      <p className={styles.line} lang={l}>
        “{word(fact('warmup.line'), l)}”
      </p>
      {warmup.problem ? <p role="alert">{warmup.problem}</p> : null}
      <div className={styles.actions}>
        {step === 'recording' ? (
          <Button variant="danger" onClick={warmup.stop} data-testid="voice-warmup-stop">
            {word(fact('warmup.stop'), l)}
          </Button>
        ) : (
          // Secondary: the dub page has one main action, the scene take; the warm-up is offered beside it.
          <Button
            variant="secondary"
            loading={step === 'saving'}
            disabled={busy.value}
            onClick={() => void warmup.record(l)}
            data-testid="voice-warmup-record"
          >
            {step === 'saving' ? word(fact('warmup.saving'), l) : word(fact('warmup.record'), l)}
          </Button>
        )}
        <Button
          variant="ghost"
          disabled={step !== 'offer'}
          onClick={() => void warmup.skip()}
          data-testid="voice-warmup-skip"
        >
          {word(fact('warmup.skip'), l)}
        </Button>
      </div>
    </section>
  );
}

/**
 * The warm-up's step, from the server's status once read, and what the learner can do: record
 * (a problem worded in `l` when it fails), stop the recording, skip.
 */
function useWarmup(onStatus: ((status: VoiceWarmupState['status']) => void) | undefined) {
  const [step, setStep] = useState<Step>('hidden');
  const [problem, setProblem] = useState<string | null>(null);
  const stop = useRef<AbortController | null>(null);
  // A ref, so the status is read once per mount whatever callback the parent passes on each render.
  const tell = useRef(onStatus);
  tell.current = onStatus;

  useEffect(() => {
    const abort = new AbortController();
    getVoiceWarmup({ signal: abort.signal })
      .then((s) => {
        if (s.status === 'none') setStep('offer');
        tell.current?.(s.status);
      })
      // Not offered when its state cannot be read: the takes are then read as the server knows them.
      .catch(() => undefined);
    return () => {
      abort.abort();
      stop.current?.abort();
    };
  }, []);

  const record = async (l: Lang) => {
    setProblem(null);
    const abort = new AbortController();
    stop.current = abort;
    setStep('recording');
    try {
      const wav = await recordWav(abort.signal);
      setStep('saving');
      const state = await saveVoiceWarmup(wav);
      if (state.status === 'recorded') setStep('done');
      else {
        setProblem(word(fact('warmup.retry', { reason: reasonOf(state.refused) }), l));
        setStep('offer');
      }
    } catch {
      setProblem(word(fact('warmup.failed'), l));
      setStep('offer');
    } finally {
      stop.current = null;
    }
  };

  const skip = async () => {
    setStep('skipped');
    // Not remembered when the call fails: the step is offered again next time, nothing is lost.
    await skipVoiceWarmup().catch(() => undefined);
  };

  return { step, problem, record, skip, stop: () => stop.current?.abort() };
}
