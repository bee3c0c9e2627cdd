import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { readToken, writeToken } from '../../../src/api/token';
import { setLang } from '../../../src/app/i18n';
import { DEFAULT_KIOSK_IDLE_MS, kioskIdleMs, warningMs } from '../../../src/app/features/kiosk/idle-config';
import { KioskIdle } from '../../../src/app/features/kiosk/kiosk-idle';
import { subTitlesScores } from '../../../src/app/stores/takes/sub-titles-scores';
import { syncToken } from '../../../src/app/stores/account';
import { DEVICE_KIND_KEY, deviceKind, rememberDeviceFromUrl } from '../../../src/app/lib/device';
import { clearLocalData } from '../../../src/app/stores/session';
import { fixtureServerForFile } from '../api/fixture-server';
import { renderScreen } from './render-screen';

// The idle logout's revoke call goes to a real HTTP server on the page's origin.
const server = fixtureServerForFile();

beforeEach(() => {
  setLang('zh');
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  server.reset();
  vi.useRealTimers();
  window.__APP_CONFIG__ = undefined;
});

describe('kiosk idle timeout', () => {
  // A kiosk as its operator marks it: happy-dom reports a mouse and no touch screen, a desktop.
  beforeEach(() => localStorage.setItem(DEVICE_KIND_KEY, 'kiosk'));

  test('configuration: run time wins over build time, 0 turns it off, junk falls back to 3 minutes', () => {
    expect(kioskIdleMs()).toBe(DEFAULT_KIOSK_IDLE_MS);
    window.__APP_CONFIG__ = { kioskIdleMs: 45_000 };
    expect(kioskIdleMs()).toBe(45_000);
    window.__APP_CONFIG__ = { kioskIdleMs: 0 };
    expect(kioskIdleMs()).toBe(0);
    window.__APP_CONFIG__ = { kioskIdleMs: -5 };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(kioskIdleMs()).toBe(DEFAULT_KIOSK_IDLE_MS);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('kioskIdleMs=-5'));
    expect(warningMs(180_000)).toBe(15_000);
    expect(warningMs(8_000)).toBe(2_000);
  });

  test('warns, then returns to standby and wipes the session; a touch in between keeps it', async () => {
    window.__APP_CONFIG__ = { kioskIdleMs: 8_000 };
    writeToken('tok-kiosk');
    syncToken();
    localStorage.setItem('account.userInfo', '{"nickname":"someone"}');
    sessionStorage.setItem('prpt.subTitlesScores/s1', '{"subtitlesId":"s1"}');
    const { router } = renderScreen(<KioskIdle part="prpt" />, '/prpt/movies');

    await act(async () => vi.advanceTimersByTime(6_500));
    expect(screen.getByRole('heading', { name: '还在吗？' })).toBeInTheDocument();
    expect(screen.getByText(/秒后将回到待机画面并退出登录/)).toBeInTheDocument();

    // Any key press is activity: the warning goes and the clock restarts.
    await act(async () => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
      vi.advanceTimersByTime(500);
    });
    expect(screen.queryByRole('heading', { name: '还在吗？' })).toBeNull();
    await act(async () => vi.advanceTimersByTime(5_000));
    expect(router.state.location.pathname).toBe('/prpt/movies');
    expect(readToken()).toBe('tok-kiosk');

    await act(async () => vi.advanceTimersByTime(3_500));
    expect(router.state.location.pathname).toBe('/prpt/standby');
    expect(readToken()).toBeNull();
    // The server was asked to revoke the session, with the token the kiosk held.
    await server.waitForRequests(1);
    expect(server.last().url.pathname).toBe('/producer/site_products/logout');
    expect(server.last().headers.token).toBe('tok-kiosk');
    expect(localStorage.getItem('account.userInfo')).toBeNull();
    expect(sessionStorage.getItem('prpt.subTitlesScores/s1')).toBeNull();
    expect(subTitlesScores.value).toEqual({});
  });

  test('a film or take playing is activity: the session lasts while the clip plays and ends after it', async () => {
    window.__APP_CONFIG__ = { kioskIdleMs: 8_000 };
    writeToken('tok-watching');
    syncToken();
    const { router } = renderScreen(<KioskIdle part="prpt" />, '/prpt/dub/film-1');
    const video = document.createElement('video');
    document.body.append(video);
    // 20 s of clip (longer than the idle time): timeupdate about every 250 ms, as a playing clip sends.
    for (let i = 0; i < 80; i++) {
      await act(async () => {
        video.dispatchEvent(new Event('timeupdate'));
        vi.advanceTimersByTime(250);
      });
    }
    expect(screen.queryByRole('heading', { name: '还在吗？' })).toBeNull();
    expect(router.state.location.pathname).toBe('/prpt/dub/film-1');
    expect(readToken()).toBe('tok-watching');
    // The clip ended: nothing plays, so the idle time runs out.
    await act(async () => vi.advanceTimersByTime(8_500));
    expect(router.state.location.pathname).toBe('/prpt/standby');
    // Its revoke call lands here, not in whichever test runs next.
    await server.waitForRequests(1);
    expect(server.last().headers.token).toBe('tok-watching');
    video.remove();
  });

  test('the part layout loads the watcher after its first render, and it returns an idle kiosk to standby', async () => {
    vi.useRealTimers();
    window.__APP_CONFIG__ = { kioskIdleMs: 1_000 };
    writeToken('tok-layout');
    syncToken();
    const { PartLayout } = await import('../../../src/app/layouts/part-layout');
    const { router } = renderScreen(<PartLayout area="prpt" />, '/prpt/movies', '/prpt/movies', {
      '/prpt/standby': <p>standby</p>,
    });
    expect(await screen.findByText('standby', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/prpt/standby');
    // Its revoke call, with the token this test set, lands here, not in whichever test runs next.
    await server.waitForRequests(1);
    expect(server.last().headers.token).toBe('tok-layout');
  });

  test('does nothing on the standby screen itself', async () => {
    window.__APP_CONFIG__ = { kioskIdleMs: 1_000 };
    writeToken('tok-stay');
    const { router } = renderScreen(<KioskIdle part="prpo" />, '/prpo/standby');
    await act(async () => vi.advanceTimersByTime(5_000));
    expect(router.state.location.pathname).toBe('/prpo/standby');
    expect(readToken()).toBe('tok-stay');
  });
});

describe('idle logout on kiosks only', () => {
  /** A screen as the browser reports it: its pointer (a touch screen's is coarse), touch points, size. */
  function asScreen(
    pointer: 'coarse' | 'fine',
    touchPoints: number,
    width: number,
    height: number,
  ): () => void {
    const media = vi
      .spyOn(window, 'matchMedia')
      .mockImplementation(
        (q: string) => ({ matches: q.includes(`pointer: ${pointer}`), media: q }) as MediaQueryList,
      );
    const touch = vi.spyOn(window.navigator, 'maxTouchPoints', 'get').mockReturnValue(touchPoints);
    const w = vi.spyOn(window.screen, 'width', 'get').mockReturnValue(width);
    const h = vi.spyOn(window.screen, 'height', 'get').mockReturnValue(height);
    return () => {
      for (const m of [media, touch, w, h]) m.mockRestore();
    };
  }
  /** A phone: a touch screen, 390 px wide. */
  const asPhone = () => asScreen('coarse', 5, 390, 844);
  afterEach(() => localStorage.removeItem(DEVICE_KIND_KEY));

  test('a phone keeps its session however long it sits, even where the deployment sets a timeout', async () => {
    const restore = asPhone();
    try {
      window.__APP_CONFIG__ = { kioskIdleMs: 8_000 };
      expect(deviceKind()).toBe('personal');
      expect(kioskIdleMs()).toBe(0);
      writeToken('tok-phone');
      syncToken();
      const { router } = renderScreen(<KioskIdle part="prpt" />, '/prpt/movies');
      await act(async () => vi.advanceTimersByTime(60_000));
      expect(screen.queryByRole('heading', { name: '还在吗？' })).toBeNull();
      expect(router.state.location.pathname).toBe('/prpt/movies');
      expect(readToken()).toBe('tok-phone');
    } finally {
      restore();
    }
  });

  test('unmarked: a desktop (a mouse, no touch screen) keeps its session; a large touch screen is a kiosk', () => {
    window.__APP_CONFIG__ = { kioskIdleMs: 8_000 };
    for (const [pointer, touchPoints, width, height, kind] of [
      ['fine', 0, 1920, 1080, 'personal'], // a desktop or laptop
      ['fine', 0, 1280, 800, 'personal'],
      ['coarse', 10, 1920, 1080, 'kiosk'], // a touch kiosk
      ['fine', 10, 1920, 1080, 'kiosk'], // a touch screen with a mouse attached: still a touch kiosk
      ['coarse', 5, 390, 844, 'personal'], // a phone
    ] as const) {
      const restore = asScreen(pointer, touchPoints, width, height);
      try {
        expect(deviceKind(), `${pointer} pointer, ${touchPoints} touch points, ${width}×${height}`).toBe(
          kind,
        );
        expect(kioskIdleMs()).toBe(kind === 'kiosk' ? 8_000 : 0);
      } finally {
        restore();
      }
    }
  });

  test('a kiosk driven by a mouse is marked ?device=kiosk by its operator and logs out', () => {
    const restore = asScreen('fine', 0, 1920, 1080);
    try {
      window.__APP_CONFIG__ = { kioskIdleMs: 8_000 };
      expect(kioskIdleMs()).toBe(0);
      rememberDeviceFromUrl('?device=kiosk');
      expect(deviceKind()).toBe('kiosk');
      expect(kioskIdleMs()).toBe(8_000);
      // The mark outlives a logout's wipe.
      clearLocalData();
      expect(kioskIdleMs()).toBe(8_000);
    } finally {
      restore();
    }
  });

  test('a touch screen marked ?device=personal keeps its session; the mark outlives a logout; ?device=kiosk undoes it', async () => {
    const screenRestore = asScreen('coarse', 10, 1920, 1080);
    try {
      expect(deviceKind()).toBe('kiosk'); // unmarked, a large touch screen: a shared screen logs out
    } finally {
      screenRestore();
    }
    rememberDeviceFromUrl('?device=personal');
    expect(kioskIdleMs()).toBe(0);
    clearLocalData();
    expect(deviceKind()).toBe('personal');
    rememberDeviceFromUrl('?device=kiosk');
    window.__APP_CONFIG__ = { kioskIdleMs: 8_000 };
    expect(kioskIdleMs()).toBe(8_000);
    // A phone used as a kiosk (marked so) logs out like one.
    const restore = asPhone();
    try {
      expect(kioskIdleMs()).toBe(8_000);
    } finally {
      restore();
    }
  });

  test("a deployment's devices can all be personal (window.__APP_CONFIG__.device)", () => {
    window.__APP_CONFIG__ = { kioskIdleMs: 8_000, device: 'personal' };
    expect(kioskIdleMs()).toBe(0);
    window.__APP_CONFIG__ = { kioskIdleMs: 8_000, device: 'kiosk' };
    expect(kioskIdleMs()).toBe(8_000);
  });
});

describe('standby attract loop', () => {
  test('shows remembered film posters after the stores were emptied, else quiet title cards', async () => {
    const { attractPosters, rememberAttractFilms } = await import(
      '../../../src/app/features/attract/attract-posters'
    );
    const { film } = await import('./fixtures');
    const fallback = attractPosters([], 8);
    expect(fallback).toHaveLength(8);
    expect(fallback.every((p) => p.src === '')).toBe(true);
    rememberAttractFilms([film]);
    const posters = attractPosters([], 4);
    expect(posters).toHaveLength(4);
    expect(posters[0]).toMatchObject({ title: '奶奶的房子', src: '/producer/media/film-1/poster.jpg' });
    expect(new Set(posters.map((p) => p.key)).size).toBe(4);
  });
});
