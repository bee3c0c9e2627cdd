/**
 * The Mandarin recogniser (docs/words.md, "Mandarin"): sherpa-onnx's streaming zipformer from the keyword-spotting
 * model in ./model, run as a plain pinyin recogniser so every syllable heard comes out with its time.
 * Loaded once per thread on first use. `recognise` is synchronous native work: the server calls it only
 * from worker threads (pool.ts), never on its event loop.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { TARGET_SAMPLE_RATE } from '../../../src/audio/constants';
import { MODEL_DIR, MODEL_FILES } from './model-files';
import { isInitial, splitTone } from './pinyin';

/** The part of sherpa-onnx-node this engine calls (the package ships no TypeScript types). */
interface SherpaStream {
  acceptWaveform(wave: { samples: Float32Array; sampleRate: number }): void;
  inputFinished(): void;
}
interface SherpaRecognizer {
  createStream(): SherpaStream;
  isReady(stream: SherpaStream): boolean;
  decode(stream: SherpaStream): void;
  getResult(stream: SherpaStream): { tokens: string[]; timestamps: number[] };
}
interface SherpaModule {
  OnlineRecognizer: new (config: object) => SherpaRecognizer;
}

/** The model's input rate, the analysis rate of the whole app (takes are resampled to it in check.ts). */
export const MODEL_SAMPLE_RATE = TARGET_SAMPLE_RATE;
/**
 * Silence appended to every take: the streaming encoder decodes in chunks with some look-ahead, so a
 * take that ends on speech needs a little more audio before its last syllable can be emitted.
 */
const TAIL_SECONDS = 0.6;

export interface Heard {
  /** The tokens recognised, in order (pinyin initials and tone-marked finals). */
  tokens: string[];
  /** Seconds into the take where each token was emitted. */
  timestamps: number[];
}

export interface MandarinModel {
  /** Recognises a take at MODEL_SAMPLE_RATE. */
  recognise(samples: Float32Array): Heard;
  /** The bare finals the model has tokens for (pinyin.ts keeps only characters it can check). */
  finals: ReadonlySet<string>;
}

export function modelPath(name: string): string {
  return fileURLToPath(new URL(name, MODEL_DIR));
}

/** Which model files are absent (an empty list when all are there). */
export function missingModelFiles(): string[] {
  return Object.values(MODEL_FILES).filter((f) => !existsSync(modelPath(f)));
}

/** Loads the native runtime; throws with its own message when the platform package is absent. */
export function loadRuntime(): SherpaModule {
  return createRequire(import.meta.url)('sherpa-onnx-node') as SherpaModule;
}

let loaded: MandarinModel | null = null;

/** The model of this thread, created on first use. Throws when the runtime or a file is missing. */
export function mandarinModel(): MandarinModel {
  if (loaded) return loaded;
  const missing = missingModelFiles();
  if (missing.length) throw new Error(`model files missing: ${missing.join(', ')}`);
  const sherpa = loadRuntime();
  const recognizer = new sherpa.OnlineRecognizer({
    featConfig: { sampleRate: MODEL_SAMPLE_RATE, featureDim: 80 },
    modelConfig: {
      transducer: {
        encoder: modelPath(MODEL_FILES.encoder),
        decoder: modelPath(MODEL_FILES.decoder),
        joiner: modelPath(MODEL_FILES.joiner),
      },
      tokens: modelPath(MODEL_FILES.tokens),
      numThreads: 1,
      debug: 0,
    },
    decodingMethod: 'greedy_search',
  });
  const finals = new Set<string>();
  for (const line of readFileSync(modelPath(MODEL_FILES.tokens), 'utf8').split('\n')) {
    const token = line.split(' ')[0];
    if (token && !isInitial(token) && /^[a-zü\u00e0-\u01dc]+$/u.test(token))
      finals.add(splitTone(token).final);
  }
  loaded = {
    finals,
    recognise(samples) {
      const sampleRate = MODEL_SAMPLE_RATE;
      const stream = recognizer.createStream();
      stream.acceptWaveform({ samples, sampleRate });
      stream.acceptWaveform({ samples: new Float32Array(Math.round(sampleRate * TAIL_SECONDS)), sampleRate });
      stream.inputFinished();
      while (recognizer.isReady(stream)) recognizer.decode(stream);
      const { tokens, timestamps } = recognizer.getResult(stream);
      return { tokens, timestamps };
    },
  };
  return loaded;
}
