import type { SpeakerStats } from './types';

/**
 * Welford update of a speaker's running feature statistics (one take at a time). Returns a new
 * object, so a stored value is never mutated in place. Non-finite features are skipped for that
 * feature only by keeping its previous moments (its count is shared, which slightly under-weights
 * it; acceptable because analyzeVoice never emits non-finite values).
 */
export function updateSpeakerStats(stats: SpeakerStats | null, features: Float64Array): SpeakerStats {
  const dim = features.length;
  if (stats && stats.mean.length !== dim) {
    throw new Error(`speaker statistics have ${stats.mean.length} features, this analysis has ${dim}`);
  }
  const count = (stats?.count ?? 0) + 1;
  const mean = stats ? [...stats.mean] : new Array<number>(dim).fill(0);
  const m2 = stats ? [...stats.m2] : new Array<number>(dim).fill(0);
  for (let i = 0; i < dim; i++) {
    const x = features[i];
    if (!Number.isFinite(x)) continue;
    const d = x - mean[i];
    mean[i] += d / count;
    m2[i] += d * (x - mean[i]);
  }
  return { count, mean, m2 };
}

/** Population variance per feature (0 when fewer than 2 takes). */
export function speakerVariance(stats: SpeakerStats, i: number): number {
  return stats.count > 1 ? stats.m2[i] / stats.count : 0;
}
