import { act, render, screen } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { Toasts } from '../../../src/app/layouts/toasts';
import { clearToasts, TOAST_DURATION_MS, toast, toasts } from '../../../src/app/stores/toast';

afterEach(() => {
  clearToasts();
  vi.useRealTimers();
});

test('a toast lasts 3 s by default', () => {
  vi.useFakeTimers();
  expect(TOAST_DURATION_MS).toBe(3000);
  render(<Toasts />);
  act(() => {
    toast.success('已保存');
  });
  expect(screen.getByRole('status')).toHaveTextContent('已保存');
  act(() => vi.advanceTimersByTime(2999));
  expect(screen.queryByRole('status')).toHaveTextContent('已保存');
  act(() => vi.advanceTimersByTime(1));
  expect(screen.queryByRole('status')).toBeNull();
});

test('a custom duration is honoured; warnings and errors are alerts', () => {
  vi.useFakeTimers();
  render(<Toasts />);
  act(() => {
    toast.warning('登录信息已失效', 5000);
    toast.error('网络异常，请检查您的网络设置');
  });
  expect(screen.getAllByRole('alert')).toHaveLength(2);
  act(() => vi.advanceTimersByTime(3000));
  expect(screen.getAllByRole('alert').map((x) => x.textContent)).toEqual(['登录信息已失效×']);
  act(() => vi.advanceTimersByTime(2000));
  expect(screen.queryAllByRole('alert')).toHaveLength(0);
});

test('the same message is not stacked twice', () => {
  toast.warning('登录信息已失效');
  toast.warning('登录信息已失效');
  toast.info('另一条');
  expect(toasts.value.map((x) => x.msg)).toEqual(['登录信息已失效', '另一条']);
});
