import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MicrophoneError } from '../../../src/audio/capture/microphone';
import { MicCheckPanel } from '../../../src/app/features/dub/mic-check-panel';
import {
  GIVE_UP_MS,
  HEARD_READINGS,
  type LevelProbe,
  MicCheck,
  READ_MS,
} from '../../../src/app/features/dub/mic-check';
import type { DubSession } from '../../../src/app/features/dub/dub-session';
import { lang } from '../../../src/app/i18n';
import { signal } from '@preact/signals-react';

// A microphone check before a take, "we hear you" once a voice comes through at a
// level the scoring accepts (peak at or above -45 dBFS), else what to check.
const VOICE = 0.2; // about -14 dBFS: speech at arm's length
const ROOM = 0.002; // about -54 dBFS: a quiet room, under the too-quiet line

/** A microphone whose level the test sets, and whether the check let it go. */
function fakeMic(levels: () => number) {
  const stopped = vi.fn();
  const closed = vi.fn();
  const stream = { getTracks: () => [{ stop: stopped }] } as unknown as MediaStream;
  const probe: LevelProbe = { peak: levels, close: closed };
  return { deps: { open: async () => stream, probe: () => probe }, stopped, closed };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
  lang.value = 'zh';
});

describe('MicCheck', () => {
  it('hears a voice after a few loud readings, not after one click, and then lets the microphone go', async () => {
    const readings = [VOICE, ROOM, ROOM, VOICE, VOICE, VOICE];
    let i = 0;
    const mic = fakeMic(() => readings[i++] ?? ROOM);
    const check = new MicCheck(mic.deps);
    await check.start();
    expect(check.state.value.phase).toBe('listening');
    vi.advanceTimersByTime(READ_MS * 4); // one loud reading among quiet ones: not yet
    expect(check.state.value.phase).toBe('listening');
    vi.advanceTimersByTime(READ_MS * (HEARD_READINGS - 1));
    expect(check.state.value.phase).toBe('heard');
    expect(mic.stopped).toHaveBeenCalled();
    expect(mic.closed).toHaveBeenCalled();
  });

  it('a quiet room is not a voice: after the wait it says so and releases the microphone', async () => {
    const mic = fakeMic(() => ROOM);
    const check = new MicCheck(mic.deps);
    await check.start();
    vi.advanceTimersByTime(GIVE_UP_MS - READ_MS);
    expect(check.state.value.phase).toBe('listening');
    vi.advanceTimersByTime(READ_MS);
    expect(check.state.value.phase).toBe('quiet');
    expect(mic.stopped).toHaveBeenCalled();
  });

  it('a refused microphone names its reason; a stop while listening releases it at once', async () => {
    const refused = new MicCheck({
      open: () => Promise.reject(new MicrophoneError('denied')),
    });
    await refused.start();
    expect(refused.state.value).toEqual({ phase: 'failed', reason: 'denied' });

    const mic = fakeMic(() => ROOM);
    const check = new MicCheck(mic.deps);
    await check.start();
    check.stop();
    expect(check.state.value.phase).toBe('idle');
    expect(mic.stopped).toHaveBeenCalled();
  });
});

describe('MicCheckPanel', () => {
  const session = (busy = signal(false)) => ({ busy }) as unknown as DubSession;

  it.each([
    ['zh', '检查麦克风', '请说几句话……', '✓ 我们听到你了'],
    ['en', 'Check the microphone', 'Say a few words…', '✓ We hear you'],
  ] as const)(
    '%s: asks for a few words, then says it hears the learner',
    async (language, button, ask, heard) => {
      lang.value = language;
      const mic = fakeMic(() => VOICE);
      render(<MicCheckPanel session={session()} deps={mic.deps} />);
      await act(async () => fireEvent.click(screen.getByRole('button', { name: button })));
      expect(screen.getByRole('status')).toHaveTextContent(ask);
      await act(async () => vi.advanceTimersByTime(READ_MS * HEARD_READINGS));
      expect(screen.getByRole('status')).toHaveTextContent(heard);
    },
  );

  it('a take starting ends a running check (the two never hold the microphone together)', async () => {
    const busy = signal(false);
    const mic = fakeMic(() => ROOM);
    render(<MicCheckPanel session={session(busy)} deps={mic.deps} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: '检查麦克风' })));
    expect(mic.stopped).not.toHaveBeenCalled();
    act(() => {
      busy.value = true;
    });
    expect(mic.stopped).toHaveBeenCalled();
    expect(screen.getByTestId('mic-check')).toHaveAttribute('data-phase', 'idle');
  });
});
