/**
 * One Mandarin word check, run in the calling thread (docs/words.md, "Mandarin"): the take resampled to the model's
 * rate, recognised as pinyin syllables with times, and judged against the line's characters. Synchronous
 * and CPU-bound: callers on the event loop go through pool.ts.
 */
import type { WordCheck } from '../../../src/api/contract';
import { resample } from '../../../src/audio/dsp/resample';
import { heardSyllables } from './align';
import { MODEL_SAMPLE_RATE, type MandarinModel, mandarinModel } from './recogniser';
import { lineChars } from './pinyin';
import { judgeLine } from './verdict';

export interface MandarinCheckJob {
  samples: Float32Array;
  sampleRate: number;
  text: string;
}

export function runMandarinCheck(job: MandarinCheckJob): WordCheck {
  let model: MandarinModel;
  try {
    model = mandarinModel();
  } catch {
    // What is missing and how to add it: mandarinWordCheckStatus() (status.ts), printed at start-up.
    return { status: 'unchecked', reason: 'engine_missing', language: 'zh' };
  }
  const line = lineChars(job.text, model.finals);
  if (!line.length) return { status: 'unchecked', reason: 'no_text', language: 'zh' };
  const samples =
    job.sampleRate === MODEL_SAMPLE_RATE
      ? job.samples
      : resample(job.samples, job.sampleRate, MODEL_SAMPLE_RATE);
  return judgeLine(line, heardSyllables(model.recognise(samples)));
}
