import { HOP_SECONDS, PITCH_MAX_HZ, PITCH_MIN_HZ, TARGET_SAMPLE_RATE } from '../constants';
import type { ProsodyFigures } from '../../api/contract';
import { FEATURE_NAMES } from './feature-names';
import { FormantAnalyzer } from './formants';
import { computeFunctionals } from './functionals';
import { IntensityAnalyzer } from './intensity';
import { measurePerturbation } from './perturbation';
import { DEFAULT_PITCH_PARAMS, PitchTracker } from './pitch';
import { pitchFigures, robustPitchTrack } from './pitch-figures';
import { resampleSinc } from './resample-sinc';
import { countSyllableNuclei, percentile, segmentSpeech } from './segments';
import { SpectralAnalyzer } from './spectral';
import type { VoiceAnalysis, VoiceQuality } from './types';

export const MIN_SAMPLE_RATE = 8_000;
export const MAX_SAMPLE_RATE = 48_000;
/** Samples at or beyond this magnitude count as clipped. */
export const CLIP_LEVEL = 0.999;

const FS = TARGET_SAMPLE_RATE;
const HOP = Math.round(FS * HOP_SECONDS);
/**
 * Pitch and formants run at half rate: 8 kHz still holds 6 harmonics of a 600 Hz voice and the
 * first three formants, at half the FFT cost; 10 LPC poles then model about 4-5 resonances, as
 * Praat's default (10 poles below 5.5 kHz).
 */
const PITCH_FS = FS / 2;
const PITCH_HOP = Math.round(PITCH_FS * HOP_SECONDS);
/**
 * 25 ms spectral frames (eGeMAPS uses 25 ms for its spectral and cepstral descriptors; the 40 ms
 * FRAME_SECONDS of constants.ts would blur consonant transitions and double the FFT cost).
 */
const SPECTRAL_FRAME = Math.round(FS * 0.025);

// Analysers hold pre-allocated buffers; one set per process/worker (analysis is synchronous).
let analyzers:
  | {
      pitch: PitchTracker;
      spectral: SpectralAnalyzer;
      intensity: IntensityAnalyzer;
      formants: FormantAnalyzer;
    }
  | undefined;

function getAnalyzers() {
  analyzers ??= {
    pitch: new PitchTracker(PITCH_FS, {
      ...DEFAULT_PITCH_PARAMS,
      floorHz: PITCH_MIN_HZ,
      ceilingHz: PITCH_MAX_HZ,
    }),
    spectral: new SpectralAnalyzer(FS, SPECTRAL_FRAME),
    intensity: new IntensityAnalyzer(FS),
    formants: new FormantAnalyzer(PITCH_FS),
  };
  return analyzers;
}

/**
 * The pitch track alone (Hz per HOP_SECONDS frame, 0 where unvoiced), by the same tracker, rates and
 * frames as `analyzeVoice`: for reading back a voice this code made (the melody version's contour).
 */
export function trackPitch(samples: Float32Array, sampleRate: number): Float32Array {
  assertSampleRate(sampleRate);
  const x = resampleSinc(samples, sampleRate, FS);
  const frames = Math.floor(x.length / HOP);
  const f0Hz = new Float32Array(frames);
  getAnalyzers().pitch.track(resampleSinc(x, FS, PITCH_FS, 8), PITCH_HOP, frames, {
    f0Hz,
    voicing: new Float32Array(frames),
  });
  return f0Hz;
}

/**
 * Full acoustic analysis of one mono take: frame tracks, segmentation, quality, utterance
 * functionals and display figures. Any rate from 8 to 48 kHz is accepted and resampled to
 * TARGET_SAMPLE_RATE with an anti-aliased windowed-sinc filter first.
 */
export function analyzeVoice(samples: Float32Array, sampleRate: number): VoiceAnalysis {
  assertSampleRate(sampleRate);
  const durationSeconds = samples.length / sampleRate;
  const level = inputLevel(samples);
  const x = resampleSinc(samples, sampleRate, FS);
  const frames = Math.floor(x.length / HOP);
  const { x8, f0Hz, voicing, intensityDb, spectral } = frameTracks(x, frames);

  const scratch = new Float64Array(Math.max(1, frames));
  const seg = segmentSpeech(intensityDb, f0Hz, frames, HOP_SECONDS, scratch);
  const { f1, f2, f3 } = formantTracks(x8, f0Hz, frames);
  const perturbation = measurePerturbation(x, FS, HOP, f0Hz, frames, PITCH_MIN_HZ, PITCH_MAX_HZ);
  const syllables = countSyllableNuclei(
    intensityDb,
    f0Hz,
    seg.speechMask,
    frames,
    seg.speechThresholdDb,
    scratch,
  );

  const features = new Float64Array(FEATURE_NAMES.length);
  computeFunctionals(
    {
      frames,
      hopSeconds: HOP_SECONDS,
      f0Hz,
      voicing,
      intensityDb,
      spectral,
      f1,
      f2,
      f3,
      speechMask: seg.speechMask,
      perturbation,
      syllables,
      segments: seg.segments,
    },
    features,
  );
  const { figures, quality } = summarise({
    durationSeconds,
    sampleCount: samples.length,
    level,
    frames,
    f0Hz,
    voicing,
    intensityDb,
    seg,
    perturbation,
    syllables,
    scratch,
  });
  return {
    sampleRate,
    durationSeconds,
    frames: { hopSeconds: HOP_SECONDS, f0Hz, voicing, intensityDb, loudness: spectral.loudness },
    segments: seg.segments,
    quality,
    features,
    figures,
  };
}

function assertSampleRate(sampleRate: number): void {
  if (!Number.isInteger(sampleRate) || sampleRate < MIN_SAMPLE_RATE || sampleRate > MAX_SAMPLE_RATE) {
    throw new RangeError(`sample rate ${sampleRate} Hz is outside ${MIN_SAMPLE_RATE}–${MAX_SAMPLE_RATE} Hz`);
  }
}

/** The recording's peak magnitude and how many samples clipped, at its own rate (before resampling). */
function inputLevel(samples: Float32Array): { peak: number; clipped: number } {
  let peak = 0;
  let clipped = 0;
  for (let i = 0; i < samples.length; i++) {
    const a = Math.abs(samples[i]);
    if (a > peak) peak = a;
    if (a >= CLIP_LEVEL) clipped++;
  }
  return { peak, clipped };
}

/** Pitch and voicing (at PITCH_FS, whose signal `x8` the formants reuse), intensity and spectrum per frame. */
function frameTracks(x: Float32Array, frames: number) {
  const a = getAnalyzers();
  const f0Hz = new Float32Array(frames);
  const voicing = new Float32Array(frames);
  const x8 = resampleSinc(x, FS, PITCH_FS, 8);
  a.pitch.track(x8, PITCH_HOP, frames, { f0Hz, voicing });
  const intensityDb = new Float32Array(frames);
  a.intensity.run(x, HOP, frames, intensityDb);
  const spectral = SpectralAnalyzer.allocate(frames);
  a.spectral.run(x, HOP, frames, spectral);
  return { x8, f0Hz, voicing, intensityDb, spectral };
}

/** The first three formants of the voiced frames. */
function formantTracks(x8: Float32Array, f0Hz: Float32Array, frames: number) {
  const voicedMask = new Uint8Array(frames);
  for (let f = 0; f < frames; f++) voicedMask[f] = f0Hz[f] > 0 ? 1 : 0;
  const f1 = new Float32Array(frames);
  const f2 = new Float32Array(frames);
  const f3 = new Float32Array(frames);
  getAnalyzers().formants.run(x8, PITCH_HOP, frames, voicedMask, f1, f2, f3);
  return { f1, f2, f3 };
}

interface SummaryInput {
  durationSeconds: number;
  sampleCount: number;
  level: { peak: number; clipped: number };
  frames: number;
  f0Hz: Float32Array;
  voicing: Float32Array;
  intensityDb: Float32Array;
  seg: ReturnType<typeof segmentSpeech>;
  perturbation: ReturnType<typeof measurePerturbation>;
  syllables: number;
  /** Work space of at least `frames` values, overwritten here. */
  scratch: Float64Array;
}

/** The figures shown to the learner and the recording's quality, from the frame tracks. */
function summarise(input: SummaryInput): { figures: ProsodyFigures; quality: VoiceQuality } {
  const { durationSeconds, sampleCount, level, frames, f0Hz, voicing, intensityDb, seg } = input;
  const { perturbation, syllables, scratch } = input;
  let nv = 0;
  for (let f = 0; f < frames; f++) if (f0Hz[f] > 0) scratch[nv++] = f0Hz[f];
  const tmp = new Float64Array(Math.max(1, frames));
  // Median and range from the repaired track (pitch-figures.ts), as every other pitch figure.
  const pitch = pitchFigures(robustPitchTrack(f0Hz, 0, frames));
  const pitchMedianHz = pitch.medianHz;
  const pitchRangeSemitones = pitch.rangeSemitones;
  let ns = 0;
  let power = 0;
  for (let f = 0; f < frames; f++)
    if (seg.speechMask[f]) {
      scratch[ns++] = intensityDb[f];
      power += 10 ** (intensityDb[f] / 10);
    }
  const speechDetected = seg.segments.onsetSeconds !== null && nv >= 10;
  const loudnessMeanDb = ns > 0 ? mean(scratch, ns) : frames > 0 ? mean(intensityDb, frames) : -120;
  const loudnessRangeDb =
    ns > 0 ? percentile(scratch, ns, 0.95, tmp) - percentile(scratch, ns, 0.05, tmp) : 0;
  const speechSpan = (seg.segments.offsetSeconds ?? 0) - (seg.segments.onsetSeconds ?? 0);
  let hnrSum = 0;
  for (let f = 0; f < frames; f++)
    if (f0Hz[f] > 0) {
      const r = Math.min(0.9999, Math.max(1e-4, voicing[f]));
      hnrSum += 10 * Math.log10(r / (1 - r));
    }
  const figures: ProsodyFigures = {
    durationMs: Math.round(durationSeconds * 1000),
    speechMs: Math.round(seg.segments.speechSeconds * 1000),
    pitchMedianHz: round(pitchMedianHz, 1),
    pitchRangeSemitones: round(pitchRangeSemitones, 2),
    loudnessMeanDb: round(loudnessMeanDb, 2) ?? -120,
    loudnessRangeDb: round(loudnessRangeDb, 2) ?? 0,
    syllablesPerSecond: speechDetected && speechSpan > 0 ? round(syllables / speechSpan, 2) : null,
    pauseCount: seg.segments.pauses.length,
    jitterPct: perturbation.jitterLocal === null ? null : round(perturbation.jitterLocal * 100, 3),
    shimmerDb: round(perturbation.shimmerLocalDb, 3),
    hnrDb: nv >= 5 ? round(hnrSum / nv, 2) : null,
  };
  const { peak, clipped } = level;
  const quality: VoiceQuality = {
    peakDbfs: peak > 0 ? Math.max(-120, round(20 * Math.log10(peak), 2) ?? -120) : -120,
    clippedFraction: sampleCount > 0 ? clipped / sampleCount : 0,
    noiseFloorDb: round(seg.noiseFloorDb, 2) ?? -120,
    snrDb: ns > 0 ? round(10 * Math.log10(power / ns) - seg.noiseFloorDb, 2) : null,
    speechDetected,
  };
  return { figures, quality };
}

function mean(a: ArrayLike<number>, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += a[i];
  return n > 0 ? s / n : 0;
}

function round(v: number | null, digits: number): number | null {
  if (v === null || !Number.isFinite(v)) return null;
  const m = 10 ** digits;
  return Math.round(v * m) / m;
}
