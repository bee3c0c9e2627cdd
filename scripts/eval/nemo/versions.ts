/**
 * The scoring versions the out-of-domain table compares, each with its committed model file (no
 * refitting: nemo-dev speakers are unheard by all of them):
 *  - v1: scripts/emotion/previous (named the top class always, with its percentage);
 *  - v2: scripts/emotion/previous/v2 (named it at or above a calibrated threshold);
 *  - shipped: src/audio/analysis's model and src/audio/scoring's rules, as the app runs them.
 */
import { EMOTIONS } from '../../../src/api/contract';
import { classifyEmotion, FEATURE_NAMES } from '../../../src/audio/analysis';
import { emotionClaim, emotionMatch, sceneArc } from '../../../src/audio/scoring/emotion-match';
import { classifyPrevious, PREVIOUS_MODEL, pickPrevious, previousMatch } from '../../emotion/previous/recipe';
import { V2_MODEL, v2Claim, v2Match } from '../../emotion/previous/v2/scoring';
import type { Version } from './figures';

const same = (x: Float64Array) => x;

export const VERSIONS: Version[] = [
  {
    id: 'v1',
    label: 'previous model (scripts/emotion/previous)',
    project: pickPrevious(FEATURE_NAMES),
    read: (x, stats) => classifyPrevious(x, stats, PREVIOUS_MODEL),
    claim: (e) => ({ named: e.detected, confidence: Math.max(...EMOTIONS.map((c) => e.probabilities[c])) }),
    match: (l, t) => previousMatch(l, t),
  },
  {
    id: 'v2',
    label: 'v2 (scripts/emotion/previous/v2)',
    project: same,
    read: (x, stats) => classifyEmotion(x, stats, V2_MODEL, { voices: null }),
    claim: (e) => v2Claim(e),
    match: (l, t) => v2Match(l, t),
  },
  {
    id: 'shipped',
    label: 'shipped (src/audio)',
    project: same,
    read: (x, stats) => classifyEmotion(x, stats),
    claim: (e, stats) => {
      const c = emotionClaim(e, stats ? stats.count : 0);
      return { named: c.named ? e.detected : null, confidence: c.confidence };
    },
    match: (l, t) => emotionMatch(l, t).score,
    arc: (l, a) => sceneArc(l, a).score,
  },
];
