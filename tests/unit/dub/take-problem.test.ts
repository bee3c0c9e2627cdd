import { afterEach, describe, expect, it, vi } from 'vitest';
import { type TakeProblem, problemOf, TakeNotReadyError } from '../../../src/app/features/dub/dub-session';
import { ClipError } from '../../../src/app/lib/video-anchor';
import { t } from '../../../src/app/i18n';
import { MicrophoneError, openMicrophone } from '../../../src/audio/capture/microphone';

const CJK = /[\u3400-\u9fff]/;

afterEach(() => vi.unstubAllGlobals());

function browserAnswers(error: unknown) {
  vi.stubGlobal('navigator', {
    mediaDevices: { getUserMedia: () => Promise.reject(error) },
  });
}

describe('why a take could not run: a code from capture, words from the catalogue', () => {
  it.each([
    ['NotAllowedError', 'denied'],
    ['SecurityError', 'denied'],
    ['NotFoundError', 'missing'],
    ['OverconstrainedError', 'missing'],
    ['NotReadableError', 'busy'],
  ])(
    'the browser refusing the microphone with %s is reason %s, logged without Chinese',
    async (name, reason) => {
      browserAnswers(new DOMException('refused', name));
      const e = await openMicrophone().catch((x: unknown) => x);
      expect(e).toBeInstanceOf(MicrophoneError);
      expect(e).toMatchObject({ reason, code: 'MIC_UNAVAILABLE' });
      expect((e as Error).message).not.toMatch(CJK);
    },
  );

  it('a browser without getUserMedia is reason unsupported', async () => {
    vi.stubGlobal('navigator', {});
    await expect(openMicrophone()).rejects.toMatchObject({ reason: 'unsupported' });
  });

  it('each failure maps to a problem the screen words in Chinese and in English', () => {
    const cases: [unknown, TakeProblem][] = [
      [new MicrophoneError('denied'), 'mic-denied'],
      [new MicrophoneError('missing'), 'mic-missing'],
      [new MicrophoneError('busy'), 'mic-busy'],
      [new MicrophoneError('unsupported'), 'mic-unsupported'],
      [new TakeNotReadyError('late'), 'not-ready'],
      [new ClipError('broken'), 'clip-failed'],
      [new TypeError('worker crashed'), 'failed'],
    ];
    for (const [error, problem] of cases) {
      expect(problemOf(error)).toBe(problem);
      const zh = t(`dub.problem.${problem}`, undefined, 'zh');
      const en = t(`dub.problem.${problem}`, undefined, 'en');
      expect(zh, problem).toMatch(CJK);
      expect(en, problem).not.toMatch(CJK);
      expect(en).not.toBe(`dub.problem.${problem}`);
    }
  });
});
