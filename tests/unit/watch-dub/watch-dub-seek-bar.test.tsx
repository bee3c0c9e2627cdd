import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WatchDub } from '../../../src/app/features/watch-dub/watch-dub';
import { setLang } from '../../../src/app/i18n';
import { withSubtitleSeconds } from '../../../src/app/lib/movie-detail';
import { prpt } from '../../../src/app/stores/films';
import { installFakeAudio } from '../fixtures/fake-audio-context';
import { detail } from '../screens/fixtures';

// Watch my dub's seek bar: a range with a name in the page's language that follows the clip and
// moves it (the player schedules the takes from there: dub-player-seek.test.ts).
describe('watch my dub: the seek bar', () => {
  beforeAll(() => {
    installFakeAudio();
  });
  afterAll(() => vi.unstubAllGlobals());
  afterEach(async () => {
    await act(() => setLang('zh'));
    prpt.movieDetail.value = null;
  });

  async function open() {
    prpt.movieDetail.value = withSubtitleSeconds(detail);
    render(<WatchDub filmId={detail.id} takes={{ s1: 'blob:s1' }} />);
    fireEvent.click(screen.getByTestId('watch-dub-open'));
    await screen.findByText('已配音 1/2 句（你的声音）');
    const video = screen.getByTestId('watch-dub-video') as HTMLVideoElement;
    Object.defineProperty(video, 'duration', { configurable: true, value: 21 });
    fireEvent(video, new Event('loadedmetadata'));
    return video;
  }

  it('is named in Chinese and in English, spans the clip and follows it', async () => {
    const video = await open();
    const bar = screen.getByRole('slider', { name: '播放位置' });
    expect(bar).toHaveAttribute('max', '21');
    expect(bar).toBeEnabled();
    expect(bar).toHaveAttribute('aria-valuetext', '0:00 / 0:21');
    video.currentTime = 7.4;
    fireEvent(video, new Event('timeupdate'));
    expect((bar as HTMLInputElement).value).toBe('7.4');
    expect(bar).toHaveAttribute('aria-valuetext', '0:07 / 0:21');
    await act(() => setLang('en'));
    expect(screen.getByRole('slider', { name: 'Position in the clip' })).toBe(bar);
  });

  it('moves the clip where it is set', async () => {
    const video = await open();
    const bar = screen.getByRole('slider', { name: '播放位置' });
    fireEvent.change(bar, { target: { value: '12.5' } });
    expect(video.currentTime).toBe(12.5);
    expect(bar).toHaveAttribute('aria-valuetext', '0:12 / 0:21');
  });

  it('closes with a visible Close button (not only Escape or a press outside)', async () => {
    await open();
    fireEvent.click(screen.getByRole('button', { name: '关闭' }));
    expect(screen.queryByTestId('watch-dub-video')).toBeNull();
  });
});
