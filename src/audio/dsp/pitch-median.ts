/**
 * The running median of a voice's pitch, for the pitch guide (docs/architecture.md, "Pitch guide"):
 * the learner's live pitch is drawn in semitones re their own median, as the actor's contour is re
 * the actor's, so two voices an octave apart share one scale. A histogram of 0.1-semitone bins over
 * the tracker's range: O(1) to add, one pass over 400 bins to read; no allocation. Pure.
 */
import { PITCH_MAX_HZ, PITCH_MIN_HZ } from '../constants';

const STEPS_PER_SEMITONE = 10;
const BINS = Math.ceil(12 * Math.log2(PITCH_MAX_HZ / PITCH_MIN_HZ) * STEPS_PER_SEMITONE) + 1;

export class RunningPitchMedian {
  private readonly bins = new Uint32Array(BINS);
  private count = 0;

  add(hz: number | null): void {
    if (!(hz !== null && hz > 0)) return;
    const bin = Math.round(12 * Math.log2(hz / PITCH_MIN_HZ) * STEPS_PER_SEMITONE);
    this.bins[Math.min(BINS - 1, Math.max(0, bin))]++;
    this.count++;
  }

  /** The median (Hz) of the voiced values so far, to 0.1 semitone; null before any. */
  medianHz(): number | null {
    if (this.count === 0) return null;
    const half = this.count / 2;
    let seen = 0;
    for (let b = 0; b < BINS; b++) {
      seen += this.bins[b];
      if (seen >= half) return PITCH_MIN_HZ * 2 ** (b / STEPS_PER_SEMITONE / 12);
    }
    return null;
  }

  /** `hz` in semitones re the running median; null when either is missing. */
  semitones(hz: number | null): number | null {
    const median = this.medianHz();
    return hz !== null && hz > 0 && median ? 12 * Math.log2(hz / median) : null;
  }
}
