/**
 * A take's windows, planned and closed, so the take can keep capturing until its last window has
 * closed on the capture clock: the clip's clock and the capture context's can part during a take (the
 * context's fell up to 1.5 s behind in Firefox on a loaded machine), and a take stopped when the clip
 * reached its end left the last line's window open, its recording incomplete.
 */
export class WindowCount {
  private planned = 0;
  private closed = 0;
  private wake: (() => void) | null = null;

  /** `n` more windows were planned in the worker. */
  addPlanned(n: number): void {
    this.planned += n;
  }

  /** The worker handed out a window (complete or not). */
  addClosed(): void {
    this.closed++;
    if (this.closed >= this.planned) this.wake?.();
  }

  /**
   * Resolves true once every planned window has closed, or false after `timeoutMs`: a capture clock
   * that lags further than that, or a stalled one, must not hold the take for good.
   */
  allClosed(timeoutMs: number): Promise<boolean> {
    if (this.closed >= this.planned) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        resolve(false);
      }, timeoutMs);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve(true);
      };
    });
  }
}
