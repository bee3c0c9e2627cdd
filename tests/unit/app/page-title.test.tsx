import { act, render } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import { setLang } from '../../../src/app/i18n';
import { useDocumentTitle, usePageTitle } from '../../../src/app/lib/page-title';

afterEach(() => setLang('zh'));

function Page({ film }: { film?: string }) {
  usePageTitle('page.prpt.cinema', 0);
  return film ? <FilmTitle film={film} /> : null;
}

function FilmTitle({ film }: { film: string }) {
  useDocumentTitle(`${film} · 光影声台`);
  return null;
}

test('the route title is set in the current language', async () => {
  render(<Page />);
  expect(document.title).toBe('第二部分 · 观看影片 · 光影声台');
  await act(() => setLang('en'));
  expect(document.title).toBe('Part two · Watch · Film Speech Trainer');
});

test("a page's own title wins over the route's, also after a language change, and yields when it unmounts", async () => {
  const view = render(<Page film="卧虎藏龙" />);
  expect(document.title).toBe('卧虎藏龙 · 光影声台');
  await act(() => setLang('en'));
  expect(document.title).toBe('卧虎藏龙 · 光影声台');
  view.rerender(<Page />);
  expect(document.title).toBe('Part two · Watch · Film Speech Trainer');
});
