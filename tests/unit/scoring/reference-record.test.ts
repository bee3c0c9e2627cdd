import { describe, expect, it } from 'vitest';
import { analyzeVoice, serializeAnalysis } from '../../../src/audio/analysis';
import { hasCurrentFeatures, type ReferenceRecord } from '../../../src/audio/scoring/reference-record';
import { FS, harmonicTone } from '../analysis/synth';

describe('cached actor analyses', () => {
  const voice = harmonicTone(1.2, (t) => 110 + 30 * Math.sin(2 * Math.PI * 0.8 * t));
  const fresh: ReferenceRecord = { version: 1, analysis: serializeAnalysis(analyzeVoice(voice, FS)) };

  it('keeps a record whose pitch range is the repaired track’s', () => {
    expect(fresh.analysis.figures.pitchRangeSemitones).not.toBeNull();
    expect(hasCurrentFeatures(fresh)).toBe(true);
  });

  it('analyses again a record whose range was read before the repair (a fricative quoted as range)', () => {
    const stale = structuredClone(fresh);
    stale.analysis.figures.pitchRangeSemitones = 32.11;
    expect(hasCurrentFeatures(stale)).toBe(false);
  });
});
