import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { setLang } from '../../../src/app/i18n';
import { LazyPage, lazyPage } from '../../../src/app/router/lazy-page';
import { CHUNK_TIMEOUT_MS, ChunkLoadError, loadChunk } from '../../../src/app/router/load-chunk';

const Page = () => <h1>loaded page</h1>;
const never = () => new Promise<never>(() => {});
const Broken = () => {
  throw new Error('boom');
};

afterEach(() => {
  vi.useRealTimers();
  setLang('zh');
});

describe('loadChunk (a 120 s limit, errors naming the chunk)', () => {
  test('a chunk with no answer after 120 s fails with reason timeout, naming the chunk', async () => {
    expect(CHUNK_TIMEOUT_MS).toBe(120_000);
    vi.useFakeTimers();
    let outcome: unknown = 'pending';
    const p = loadChunk('prpt/dub', never).catch((e) => {
      outcome = e;
    });
    await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS - 1);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    await p;
    expect(outcome).toBeInstanceOf(ChunkLoadError);
    expect(outcome).toMatchObject({ chunk: 'prpt/dub', reason: 'timeout' });
    expect((outcome as Error).message).toBe('Chunk "prpt/dub" failed to load (timeout)');
  });

  test('a failed import fails with reason missing and keeps the cause', async () => {
    const cause = new TypeError('Failed to fetch dynamically imported module: /assets/dub-x.js');
    const e = await loadChunk('prpt/dub', () => Promise.reject(cause)).catch((x: unknown) => x);
    expect(e).toMatchObject({ chunk: 'prpt/dub', reason: 'missing', cause });
  });

  test('a chunk that arrives in time resolves with the module', async () => {
    await expect(loadChunk('x', () => Promise.resolve({ default: Page }))).resolves.toEqual({
      default: Page,
    });
  });
});

describe('the page error view', () => {
  test('a missing chunk shows a readable message and Retry loads it again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const importer = vi
      .fn<() => Promise<{ default: typeof Page }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue({ default: Page });
    render(<LazyPage entry={lazyPage('prpo/movies', importer)} titleKey="page.prpo.movies" />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('页面加载失败');
    expect(alert).toHaveTextContent('prpo/movies');
    await userEvent.click(screen.getByRole('button', { name: '重试' }));
    expect(await screen.findByRole('heading', { name: 'loaded page' })).toBeInTheDocument();
    expect(importer).toHaveBeenCalledTimes(2);
  });

  test('a timed-out chunk says so, in English when English is chosen', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await setLang('en');
    render(<LazyPage entry={lazyPage('prpt/report', never, 30)} titleKey="page.prpo.movies" />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The page failed to load');
    expect(alert).toHaveTextContent('"prpt/report" timed out');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  test('a page that throws while rendering still shows a message, not a blank screen', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <LazyPage
        entry={lazyPage('broken', () => Promise.resolve({ default: Broken }))}
        titleKey="page.prpo.movies"
      />,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('页面遇到意外错误：boom');
  });
});
