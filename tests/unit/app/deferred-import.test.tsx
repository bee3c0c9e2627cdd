import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { useDeferredImport } from '../../../src/app/lib/use-deferred-import';

afterEach(() => vi.restoreAllMocks());

const module = { answer: 42 };

test('the module arrives after the first render', async () => {
  const importer = vi.fn(() => Promise.resolve(module));
  const { result } = renderHook(() => useDeferredImport('test', importer, '/a'));
  expect(result.current).toBeNull();
  await waitFor(() => expect(result.current).toBe(module));
});

test('a failed import is logged and tried again when the retry key changes', async () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  const importer = vi
    .fn<() => Promise<typeof module>>()
    .mockRejectedValueOnce(new Error('network down'))
    .mockResolvedValue(module);
  const { result, rerender } = renderHook(({ path }) => useDeferredImport('test', importer, path), {
    initialProps: { path: '/a' },
  });
  await waitFor(() =>
    expect(error).toHaveBeenCalledWith(expect.stringContaining('[test] cannot load'), expect.any(Error)),
  );
  expect(result.current).toBeNull();
  rerender({ path: '/b' });
  await waitFor(() => expect(result.current).toBe(module));
  // Loaded: a later page does not import it again.
  const calls = importer.mock.calls.length;
  rerender({ path: '/c' });
  expect(importer).toHaveBeenCalledTimes(calls);
});
