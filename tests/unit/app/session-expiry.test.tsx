import { act, screen, waitFor } from '@testing-library/react';
import { expect, test } from 'vitest';
import { readToken } from '../../../src/api/token';
import { userInfo } from '../../../src/app/stores/account';
import { loadSoundSuggest } from '../../../src/app/screens/sound-suggest/sound-suggest-state';
import { recordAttempt, subTitlesScores } from '../../../src/app/stores/takes/sub-titles-scores';
import { toasts } from '../../../src/app/stores/toast';
import { appServerForFile, expireSession, renderAppAt } from './render-app';

const server = appServerForFile();

test('code 1002 from any call: warning 登录信息已失效, local data and token cleared, prefix-aware login with a way back', async () => {
  localStorage.setItem('account.userInfo', JSON.stringify({ id: 'u1' }));
  recordAttempt('s1', '{"overall":50}', 'blob:x');
  expireSession(server, '登录信息已失效，请重新登录');

  const { here } = renderAppAt('/prpt/soundSuggest/7?tab=2');
  await waitFor(() => expect(document.querySelector('[data-page="prpt/sound-suggest"]')).not.toBeNull());

  // A data loader hits the expired session; it only logs, the bus listener does the rest.
  await act(async () => {
    await loadSoundSuggest('7');
  });

  await waitFor(() => expect(here()).toBe('/prpt/login?redirect=%2Fprpt%2FsoundSuggest%2F7%3Ftab%3D2'));
  expect(screen.getByRole('alert')).toHaveTextContent('登录信息已失效');
  expect(toasts.value).toHaveLength(1);
  expect(toasts.value[0]).toMatchObject({ kind: 'warning', msg: '登录信息已失效', durationMs: 3000 });
  expect(readToken()).toBeNull();
  expect(localStorage.getItem('account.userInfo')).toBeNull();
  expect(sessionStorage.getItem('prpt.subTitlesScores/s1')).toBeNull();
  expect(subTitlesScores.value).toEqual({});
  expect(userInfo.value).toBeNull();
});

test('on a prpo page the expiry goes to /prpo/login', async () => {
  expireSession(server, 'expired');
  const { here } = renderAppAt('/prpo/report/3');
  await waitFor(() => expect(document.querySelector('[data-page="prpo/report"]')).not.toBeNull());
  const { reportState } = await import('../../../src/app/screens/report/report-state');
  await act(async () => {
    await reportState('prpo').loadReport({ id: '3' });
  });
  await waitFor(() => expect(here()).toBe('/prpo/login?redirect=%2Fprpo%2Freport%2F3'));
});
