import { afterEach, describe, expect, it, vi } from 'vitest';
import { WindowCount } from '../../../src/app/features/dub/window-count';

afterEach(() => {
  vi.useRealTimers();
});

describe('WindowCount (a take keeps capturing until its last window closed)', () => {
  it('answers at once when every planned window has closed', async () => {
    const c = new WindowCount();
    c.addPlanned(2);
    c.addClosed();
    c.addClosed();
    await expect(c.allClosed(2000)).resolves.toBe(true);
  });

  it('waits for the last window to close, not for the bound', async () => {
    vi.useFakeTimers();
    const c = new WindowCount();
    c.addPlanned(1);
    c.addPlanned(2);
    c.addClosed();
    c.addClosed();
    let answer: boolean | undefined;
    void c.allClosed(2000).then((v) => {
      answer = v;
    });
    await vi.advanceTimersByTimeAsync(700);
    expect(answer).toBeUndefined();
    c.addClosed(); // the capture clock reached the last window's end 0.7 s after the clip stopped
    await vi.advanceTimersByTimeAsync(0);
    expect(answer).toBe(true);
  });

  it('gives up after the bound when the last window does not close', async () => {
    vi.useFakeTimers();
    const c = new WindowCount();
    c.addPlanned(3);
    c.addClosed();
    let answer: boolean | undefined;
    void c.allClosed(2000).then((v) => {
      answer = v;
    });
    await vi.advanceTimersByTimeAsync(1999);
    expect(answer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answer).toBe(false);
  });
});
