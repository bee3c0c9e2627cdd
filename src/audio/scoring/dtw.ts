/**
 * Dynamic time warping over multi-dimensional frame sequences (pure, no globals).
 *
 * Used to align the learner's take with the actor's line before comparing pitch and loudness:
 * two people never say a line at the same speed, so frame i of one is compared with the frame of
 * the other that it corresponds to, not with the frame at the same clock time.
 *
 * - Sequences are row-major `Float64Array`s of `length × dims` values.
 * - Local cost: weighted L1 distance between frames (robust to one bad dimension).
 * - Steps: (1,1), (1,0), (0,1); horizontal and vertical steps pay `stepPenalty` extra, which keeps
 *   the path near the diagonal unless the data really calls for stretching.
 * - A Sakoe–Chiba band around the (scaled) diagonal bounds work to O(n·band) and forbids absurd
 *   alignments (the whole take matched to one frame).
 * The workspace grows once and is reused, so a worker scoring many takes does not allocate per call.
 */

export interface DtwOptions {
  /** Number of values per frame (default 1). */
  dims?: number;
  /** Weight of each dimension in the L1 cost (default all 1). */
  weights?: readonly number[];
  /** Band half-width as a fraction of the longer sequence (default 0.25); at least |n − m| + 1 frames. */
  band?: number;
  /** Extra cost of a non-diagonal step (default 0). */
  stepPenalty?: number;
}

export interface DtwResult {
  /** Accumulated cost of the best path. */
  cost: number;
  /** cost / path length: the mean local distance along the path. */
  normalizedCost: number;
  /** Index into sequence a for each path step, from (0,0) to (n−1,m−1). */
  pathA: Int32Array;
  /** Index into sequence b for each path step. */
  pathB: Int32Array;
}

export class DtwWorkspace {
  private acc = new Float64Array(0);
  private dir = new Uint8Array(0);

  private ensure(cells: number): void {
    if (this.acc.length < cells) {
      this.acc = new Float64Array(cells);
      this.dir = new Uint8Array(cells);
    }
  }

  align(a: Float64Array, b: Float64Array, options: DtwOptions = {}): DtwResult {
    const dims = options.dims ?? 1;
    const n = Math.floor(a.length / dims);
    const m = Math.floor(b.length / dims);
    if (n === 0 || m === 0) throw new RangeError('DTW needs two non-empty sequences');
    const weights = options.weights ?? new Array<number>(dims).fill(1);
    const penalty = options.stepPenalty ?? 0;
    const radius = Math.max(Math.ceil((options.band ?? 0.25) * Math.max(n, m)), Math.abs(n - m) + 1);

    this.ensure(n * m);
    const acc = this.acc;
    const dir = this.dir;
    const slope = n > 1 ? (m - 1) / (n - 1) : 0;
    for (let i = 0; i < n; i++) {
      const centre = Math.round(i * slope);
      const jFrom = Math.max(0, centre - radius);
      const jTo = Math.min(m - 1, centre + radius);
      const row = i * m;
      // Cells outside the band stay unreachable.
      for (let j = 0; j < m; j++) if (j < jFrom || j > jTo) acc[row + j] = Number.POSITIVE_INFINITY;
      for (let j = jFrom; j <= jTo; j++) {
        let local = 0;
        const pa = i * dims;
        const pb = j * dims;
        for (let d = 0; d < dims; d++) local += weights[d] * Math.abs(a[pa + d] - b[pb + d]);
        if (i === 0 && j === 0) {
          acc[0] = local;
          dir[0] = 0;
          continue;
        }
        const diag = i > 0 && j > 0 ? acc[row - m + j - 1] : Number.POSITIVE_INFINITY;
        const up = i > 0 ? acc[row - m + j] + penalty : Number.POSITIVE_INFINITY;
        const left = j > 0 ? acc[row + j - 1] + penalty : Number.POSITIVE_INFINITY;
        let best = diag;
        let step = 0;
        if (up < best) {
          best = up;
          step = 1;
        }
        if (left < best) {
          best = left;
          step = 2;
        }
        acc[row + j] = best + local;
        dir[row + j] = step;
      }
    }

    const cost = acc[n * m - 1];
    // Backtrack: at most n + m − 1 steps.
    const bufA = new Int32Array(n + m);
    const bufB = new Int32Array(n + m);
    let i = n - 1;
    let j = m - 1;
    let k = 0;
    for (;;) {
      bufA[k] = i;
      bufB[k] = j;
      k++;
      if (i === 0 && j === 0) break;
      const step = i === 0 ? 2 : j === 0 ? 1 : dir[i * m + j];
      if (step === 0) {
        i--;
        j--;
      } else if (step === 1) i--;
      else j--;
    }
    const pathA = new Int32Array(k);
    const pathB = new Int32Array(k);
    for (let s = 0; s < k; s++) {
      pathA[s] = bufA[k - 1 - s];
      pathB[s] = bufB[k - 1 - s];
    }
    return { cost, normalizedCost: cost / k, pathA, pathB };
  }
}

const shared = new DtwWorkspace();

/** Aligns two sequences with a module-level workspace (fine in a single-threaded worker). */
export function dtw(a: Float64Array, b: Float64Array, options?: DtwOptions): DtwResult {
  return shared.align(a, b, options);
}
