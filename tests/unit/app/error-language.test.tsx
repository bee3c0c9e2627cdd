import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { getMovieDetail_prpt, saveQA_prpt } from '../../../src/api/calls';
import { setLang } from '../../../src/app/i18n';
import { Toasts } from '../../../src/app/layouts/toasts';
import { LoginScreen } from '../../../src/app/screens/login/login-screen';
import { resetAccount } from '../../../src/app/stores/account';
import { clearToasts } from '../../../src/app/stores/toast';
import { userAction } from '../../../src/app/stores/user-action';
import { json, fixtureServerForFile } from '../api/fixture-server';
import { renderScreen } from '../screens/render-screen';

/** Chinese characters: none may reach a learner who chose English. */
const CJK = /[\u3400-\u9fff]/;

const server = fixtureServerForFile();
afterEach(async () => {
  clearToasts();
  resetAccount();
  server.reset();
  await setLang('zh');
});

describe('errors speak the learner’s language', () => {
  test('English mode: a wrong password is said once, in English, in the form', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.handle((_req, res) => {
      if (_req.url.pathname.endsWith('/login_pwd'))
        return json(res, { code: 1001, msg: '账号或密码错误', data: null });
      json(res, {
        code: 200,
        msg: 'ok',
        data: { url: 'https://h5.example/qr?uuid=x', expiresIn: 120, pickupKey: 'k' },
      });
    });
    await setLang('en');
    render(<Toasts />);
    renderScreen(<LoginScreen part="prpt" onLoggedIn={vi.fn()} />, '/prpt/login');
    const u = userEvent.setup();
    const form = screen.getByRole('form', { name: 'Account and password' });
    await u.type(within(form).getByRole('textbox', { name: 'Account' }), 'demo');
    await u.type(within(form).getByLabelText('Password', { selector: 'input' }), 'wrong');
    await u.click(within(form).getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Wrong account or password')).toBeInTheDocument();
    // Once: in the form, not again as a toast.
    expect(screen.getAllByText('Wrong account or password')).toHaveLength(1);
    expect(screen.queryAllByRole('alert').filter((a) => CJK.test(a.textContent ?? ''))).toEqual([]);
    expect(document.body.textContent).not.toContain('账号或密码错误');
  });

  test.each([
    [
      'a row the server names',
      { code: 404, msg: '影片不存在', data: { msgId: 'error.filmNotFound' } },
      'Film not found',
      '影片不存在',
    ],
    [
      'a code that means one thing',
      { code: 503, msg: '服务器繁忙，请稍后再试 (server busy)', data: null },
      'The server is busy, please try again shortly',
      '服务器繁忙，请稍后再试 (server busy)',
    ],
    [
      'an unknown server message',
      { code: 4242, msg: '奇怪的错误', data: null },
      'Server error, please try again later',
      '奇怪的错误',
    ],
  ] as const)(
    'a toast words %s in English, and in Chinese as the catalogue has it',
    async (_what, answer, en, zh) => {
      server.handle((_req, res) => json(res, answer));
      render(<Toasts />);
      const fail = () => userAction(() => getMovieDetail_prpt({ id: 'x' })).catch(() => {});
      await setLang('en');
      await act(fail);
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent(en);
      expect(alert.textContent).not.toMatch(CJK);
      clearToasts();
      await setLang('zh');
      await act(fail);
      expect(await screen.findByRole('alert')).toHaveTextContent(zh);
    },
  );

  test('a refusal with no row: the server’s own sentence, in the language the request asked for', async () => {
    // As the server does (server/lib/words.ts): the msg is worded in the request's Accept-Language.
    server.handle((req, res) =>
      json(res, {
        code: 400,
        msg: String(req.headers['accept-language']).startsWith('en')
          ? 'question 3 is required'
          : '第 3 题为必答题，请作答',
        data: null,
      }),
    );
    render(<Toasts />);
    const save = () => userAction(() => saveQA_prpt({ filmId: 'f1', answers: [] })).catch(() => {});
    await setLang('en');
    await act(save);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('question 3 is required');
    expect(alert.textContent).not.toMatch(CJK);
    expect(server.last().headers['accept-language']).toBe('en');
    clearToasts();
    await setLang('zh');
    await act(save);
    expect(await screen.findByRole('alert')).toHaveTextContent('第 3 题为必答题，请作答');
  });

  test('no response at all: English words for the client’s own row', async () => {
    server.handle((_req, res) => res.socket?.destroy());
    render(<Toasts />);
    await setLang('en');
    await act(() => userAction(() => getMovieDetail_prpt({ id: 'x' })).catch(() => {}));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Network error: check your connection');
    expect(alert.textContent).not.toMatch(CJK);
  });
});
