import { afterEach, expect, test } from 'vitest';
import { request } from '../../../src/api/request';
import { fixtureServerForFile } from './fixture-server';

const server = fixtureServerForFile();
afterEach(() => {
  document.documentElement.lang = 'zh-CN';
});

const languageSent = async (headers?: Record<string, string>) => {
  await request({ method: 'GET', path: '/x', headers });
  return server.last().headers['accept-language'];
};

test("every call asks for the page's language (the learner's choice), so the service answers in it", async () => {
  document.documentElement.lang = 'en';
  expect(await languageSent()).toBe('en');
  document.documentElement.lang = 'zh-CN';
  expect(await languageSent()).toBe('zh-CN');
});

test("a caller's own Accept-Language wins", async () => {
  document.documentElement.lang = 'en';
  expect(await languageSent({ 'Accept-Language': 'zh-CN' })).toBe('zh-CN');
});
