/**
 * The clip's clock as heard on an AudioContext: a least-squares line through the last frames'
 * (context time heard when the frame is shown, media time) pairs. A video need not keep real time —
 * on a busy machine Chromium presents a muted clip ~20 % slow, with frames ±50 ms off their slot —
 * so "watch my dub" schedules each take from this fit just before it is due rather than from one
 * anchor at the start (features/watch-dub/dub-player.ts). Pure, so it is unit-tested.
 */
export class VideoClock {
  private readonly points: { c: number; m: number }[] = [];
  private a = 0;
  private r = 1;

  /**
   * `window` frames (~2 s at 15 fps) give the rate; the offset is the median over the last `recent`,
   * so a stall or a jump moves the clock within a few frames while one late frame does not.
   */
  constructor(
    private readonly window = 30,
    private readonly recent = 4,
  ) {}

  get ready(): boolean {
    return this.points.length > 0;
  }

  /** Clip seconds per context second (1 when the clip keeps time). */
  get rate(): number {
    return this.r;
  }

  /** A frame with media time `m` was heard-aligned at context time `c`. */
  add(c: number, m: number): void {
    const last = this.points[this.points.length - 1];
    // A seek or a restart: the old frames describe another run of the clock.
    if (last && (m < last.m || m - last.m > 1)) this.points.length = 0;
    this.points.push({ c, m });
    if (this.points.length > this.window) this.points.shift();
    this.fit();
  }

  /** Forgets every frame: after a seek the old frames describe another run of the clock, however near. */
  reset(): void {
    this.points.length = 0;
    this.a = 0;
    this.r = 1;
  }

  /** Clip time heard at context time `c`. */
  clipAt(c: number): number {
    return this.a + this.r * c;
  }

  /** Context time at which clip time `m` is heard. */
  contextAt(m: number): number {
    return (m - this.a) / this.r;
  }

  private fit(): void {
    const n = this.points.length;
    let r = 1;
    if (n >= 4) {
      let sc = 0;
      let sm = 0;
      for (const p of this.points) {
        sc += p.c;
        sm += p.m;
      }
      const mc = sc / n;
      const mm = sm / n;
      let cov = 0;
      let varc = 0;
      for (const p of this.points) {
        cov += (p.c - mc) * (p.m - mm);
        varc += (p.c - mc) ** 2;
      }
      // A stalled or racing fit (a frame burst after a stall) is not a clock: keep it plausible.
      if (varc > 0) r = Math.min(1.5, Math.max(0.5, cov / varc));
    }
    const offsets = this.points
      .slice(-this.recent)
      .map((p) => p.m - r * p.c)
      .sort((x, y) => x - y);
    const k = offsets.length >> 1;
    this.r = r;
    this.a = offsets.length % 2 ? offsets[k] : (offsets[k - 1] + offsets[k]) / 2;
  }
}
