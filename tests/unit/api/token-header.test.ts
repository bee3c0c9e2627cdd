import { afterEach, expect, test } from 'vitest';
import { request } from '../../../src/api/request';
import { readToken, removeToken, TOKEN_COOKIE, writeToken } from '../../../src/api/token';
import { setRawCookie, fixtureServerForFile } from './fixture-server';

const server = fixtureServerForFile();
afterEach(() => removeToken());

const tokenHeaderSent = async () => {
  await request({ method: 'GET', path: '/x' });
  return server.last().headers.token;
};

test('sends header `token` when the user-token cookie exists', async () => {
  writeToken('t-123');
  expect(await tokenHeaderSent()).toBe('t-123');
});

test('no token header when the cookie is missing', async () => {
  expect(await tokenHeaderSent()).toBeUndefined();
});

test('no token header when the cookie holds the text "undefined"', async () => {
  setRawCookie(`${TOKEN_COOKIE}=undefined; path=/`);
  expect(readToken()).toBeNull();
  expect(await tokenHeaderSent()).toBeUndefined();
});

test('the cookie is written with the contract lifetime and path, and removed on demand', () => {
  writeToken('abc');
  expect(readToken()).toBe('abc');
  removeToken();
  expect(readToken()).toBeNull();
});
