import { MFCC_COUNT } from './spectral';

/**
 * Names of the utterance functionals, in the order of VoiceAnalysis.features. eGeMAPS-like
 * (Eyben et al. 2016) with extra MFCC, delta and contour-shape statistics.
 * Suffixes: _v = voiced frames, _uv = unvoiced speech frames, _sp = speech frames.
 */
const DIST = ['mean', 'std', 'p20', 'p50', 'p80', 'range2080'] as const;

function group(prefix: string, suffixes: readonly string[]): string[] {
  return suffixes.map((s) => `${prefix}_${s}`);
}

function build(): string[] {
  const names: string[] = [];
  // Pitch in semitones re 27.5 Hz over voiced frames.
  names.push(...group('f0st', [...DIST, 'p05', 'p95', 'rise_mean', 'rise_std', 'fall_mean', 'fall_std']));
  names.push('f0st_trend', 'f0st_curvature', 'f0st_absdelta_mean');
  names.push(...group('loud_sp', [...DIST, 'cov', 'rise_mean', 'fall_mean']));
  // Level features are relative to the take's own 95th percentile (gain-invariant).
  names.push(...group('int_sp', ['mean_re_p95', 'std', 'range0595']));
  names.push('hnr_v_mean', 'hnr_v_std', 'voicing_v_mean', 'jitter_local', 'shimmer_local_db');
  for (const f of ['f1', 'f2', 'f3']) names.push(`${f}_v_mean`, `${f}_v_std`);
  for (const lld of ['alpha', 'hammarberg', 'slope0500', 'slope5001500', 'flux', 'centroid']) {
    names.push(`${lld}_v_mean`, `${lld}_v_std`, `${lld}_uv_mean`);
  }
  for (let k = 1; k <= MFCC_COUNT; k++) names.push(`mfcc${k}_v_mean`, `mfcc${k}_v_std`);
  for (let k = 1; k <= 4; k++) names.push(`mfcc${k}_uv_mean`);
  for (let k = 1; k <= MFCC_COUNT; k++) names.push(`dmfcc${k}_sp_std`);
  names.push(
    'voiced_fraction',
    'syllable_rate',
    'loudness_peak_rate',
    'voiced_segments_per_s',
    'voiced_seg_len_mean',
    'voiced_seg_len_std',
    'unvoiced_seg_len_mean',
    'unvoiced_seg_len_std',
    'pauses_per_s',
    'pause_len_mean',
  );
  // Measures that survive a change of voice or microphone: pitch spread re the take's own median,
  // formant ratios (a longer or shorter vocal tract scales all formants alike), and how much the
  // spectral balance changes between the take's loud and soft voiced frames (vocal effort; a
  // microphone's fixed tilt cancels in the difference).
  names.push('f0st_p95_re_p50', 'f0st_p50_re_p05', 'f1_re_f3_v_mean', 'f2_re_f3_v_mean');
  names.push('alpha_loud_re_soft', 'hammarberg_loud_re_soft', 'slope0500_loud_re_soft');
  return names;
}

export const FEATURE_NAMES: readonly string[] = Object.freeze(build());
