import { describe, expect, it } from 'vitest';
import { chooseRecorderKind, forcedRecorderKind } from '../../../src/audio/capture/recorder';
import { MIC_CONSTRAINTS } from '../../../src/audio/capture/microphone';

describe('recorder choice', () => {
  it('uses the AudioWorklet where there is one', () => {
    expect(chooseRecorderKind('', true)).toBe('worklet');
  });

  it('falls back to audio-recorder-polyfill without AudioWorklet', () => {
    expect(chooseRecorderKind('', false)).toBe('polyfill');
    expect(chooseRecorderKind('?recorder=worklet', false)).toBe('polyfill');
  });

  it('?recorder=polyfill forces the fallback even where the worklet works', () => {
    expect(chooseRecorderKind('?recorder=polyfill', true)).toBe('polyfill');
    expect(chooseRecorderKind('?debug=pipeline&recorder=polyfill', true)).toBe('polyfill');
    expect(forcedRecorderKind('?recorder=nonsense')).toBeNull();
  });
});

describe('microphone constraints', () => {
  it('turns off echo cancellation, noise suppression and auto gain (they distort pitch and loudness)', () => {
    expect(MIC_CONSTRAINTS.audio).toMatchObject({
      echoCancellation: false,
      noiseSuppression: false,
      autoGainControl: false,
    });
  });
});
