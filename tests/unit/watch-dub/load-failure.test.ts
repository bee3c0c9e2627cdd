import { afterEach, describe, expect, it } from 'vitest';
import { loadTrack, TrackLoadError } from '../../../src/app/features/watch-dub/dub-player';
import { failureText } from '../../../src/app/features/watch-dub/watch-dub';
import { loadMessages, setLang } from '../../../src/app/i18n';

// "Watch my dub" names why a track did not load: the page's policy, a take this page can no longer
// read, the server's answer, the network or undecodable bytes — never "the network" for all of them.
const ctx = {
  decodeAudioData: async (bytes: ArrayBuffer) => {
    if (new Uint8Array(bytes)[0] !== 1) throw new DOMException('bad', 'EncodingError');
    return { duration: 1 } as AudioBuffer;
  },
} as unknown as BaseAudioContext;

const failureOf = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(TrackLoadError);
  return (e as TrackLoadError).failure;
};

afterEach(async () => {
  await setLang('zh');
});

describe('watch my dub: why a track failed', () => {
  it('a fetch the page policy refused is "blocked", not the network', async () => {
    const url = 'blob:http://127.0.0.1/abc';
    const refused = async () => {
      const e = new Event('securitypolicyviolation') as Event & { blockedURI: string };
      Object.defineProperty(e, 'blockedURI', { value: 'blob' });
      document.dispatchEvent(e);
      throw new TypeError('Failed to fetch');
    };
    const failure = await failureOf(loadTrack(ctx, url, 'take', 'l2', refused as typeof fetch));
    expect(failure).toMatchObject({ kind: 'blocked', track: 'take', lineId: 'l2' });
  });

  it('a local take that cannot be read is "local"; a server URL that cannot be reached is "network"', async () => {
    const offline = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    expect((await failureOf(loadTrack(ctx, 'blob:http://x/1', 'take', 'l1', offline))).kind).toBe('local');
    expect((await failureOf(loadTrack(ctx, '/media/clip.mp4', 'clip', undefined, offline))).kind).toBe(
      'network',
    );
  });

  it('an error status is "http" with the status; bytes that do not decode are "decode"; good bytes load', async () => {
    const answer = (status: number, first: number) =>
      (async () => new Response(new Uint8Array([first, 0, 0]), { status })) as unknown as typeof fetch;
    expect(await failureOf(loadTrack(ctx, '/t.wav', 'take', 'l1', answer(404, 1)))).toMatchObject({
      kind: 'http',
      status: 404,
    });
    expect((await failureOf(loadTrack(ctx, '/t.wav', 'take', 'l1', answer(200, 7)))).kind).toBe('decode');
    await expect(loadTrack(ctx, '/t.wav', 'take', 'l1', answer(200, 1))).resolves.toEqual({ duration: 1 });
  });

  it('the words name the cause and the line, in both languages', async () => {
    const lines = [{ id: 'l1' }, { id: 'l2' }];
    const blocked = { kind: 'blocked', track: 'take', lineId: 'l2', url: 'blob:x' } as const;
    await loadMessages('later', 'zh');
    expect(failureText(blocked, lines)).toContain('第 2 句的录音');
    expect(failureText(blocked, lines)).toContain('安全设置');
    expect(failureText(blocked, lines)).not.toContain('网络后重试');
    await loadMessages('later', 'en');
    await setLang('en');
    expect(failureText(blocked, lines)).toContain('your take of line 2');
    expect(failureText({ kind: 'http', track: 'clip', status: 503, url: '/c' }, lines)).toContain('503');
  });
});
