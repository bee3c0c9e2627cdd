import { beforeEach, describe, expect, test, vi } from 'vitest';
import { bus } from '../../../src/api/bus';
import { Code } from '../../../src/api/contract';
import { ApiError } from '../../../src/api/errors';
import { request } from '../../../src/api/request';
import { json, fixtureServerForFile, text } from './fixture-server';

const server = fixtureServerForFile('/prpt/movies?x=1');
beforeEach(() => server.reset());

async function failure(): Promise<ApiError> {
  try {
    await request({ method: 'GET', path: '/x' });
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('the call was expected to fail');
}

describe('error catalogue (src/api/README.md), message texts verbatim', () => {
  test('code 200 resolves with data', async () => {
    server.handle((_r, res) => json(res, { code: 200, msg: 'ok', data: { n: 1 } }));
    await expect(request({ method: 'GET', path: '/x' })).resolves.toEqual({ n: 1 });
  });

  test('code 1002 → 登录信息已失效 and a sessionExpired event on the bus', async () => {
    const heard = vi.fn();
    bus.on('sessionExpired', heard);
    server.handle((_r, res) => json(res, { code: 1002, msg: '登录信息已失效，请重新登录', data: null }, 401));
    const e = await failure();
    bus.off('sessionExpired', heard);
    expect(e.code).toBe(1002);
    expect(e.msg).toBe('登录信息已失效');
    expect(heard).toHaveBeenCalledTimes(1);
    expect(heard.mock.calls[0][0]).toMatchObject({ code: 1002, path: '/prpt/movies?x=1' });
  });

  test('no response (connection refused) → 网络异常，请检查您的网络设置', async () => {
    window.__APP_CONFIG__ = { producerBase: 'http://127.0.0.1:9/producer' }; // port 9: nothing listens
    try {
      const e = await failure();
      expect(e.msg).toBe('网络异常，请检查您的网络设置');
      expect(e.reason).toBe('network');
    } finally {
      window.__APP_CONFIG__ = undefined;
    }
  });

  test('an empty response → 网络异常，请检查您的网络设置', async () => {
    server.handle((_r, res) => text(res, '', 200));
    expect((await failure()).msg).toBe('网络异常，请检查您的网络设置');
  });

  test('unparseable body with status 500 → 服务器异常，请稍后再试', async () => {
    server.handle((_r, res) => text(res, '<html>Internal Server Error</html>', 500));
    const e = await failure();
    expect(e.msg).toBe('服务器异常，请稍后再试');
    expect(e.status).toBe(500);
  });

  test('unparseable body with another status → 网络异常，请稍后再试', async () => {
    server.handle((_r, res) => text(res, '<html>Bad Gateway</html>', 502));
    expect((await failure()).msg).toBe('网络异常，请稍后再试');
  });

  test('JSON that is not the envelope counts as unparseable', async () => {
    server.handle((_r, res) => json(res, ['not', 'an', 'envelope'], 200));
    expect((await failure()).msg).toBe('网络异常，请稍后再试');
  });

  test("any other code → the server's msg, with code and data on the error", async () => {
    const data = { field: 'answers.0.value', issues: [{ path: 'answers.0.value', message: '必填' }] };
    server.handle((_r, res) => json(res, { code: 400, msg: '请回答第 1 题', data }, 400));
    const e = await failure();
    expect(e.msg).toBe('请回答第 1 题');
    expect(e.code).toBe(400);
    expect(e.data).toEqual(data);
  });

  test('any other code without a msg → 服务器异常，请稍后再试!', async () => {
    server.handle((_r, res) => json(res, { code: 503, msg: '', data: { retryAfterS: 5 } }, 503));
    const e = await failure();
    expect(e.msg).toBe('服务器异常，请稍后再试!');
    expect(e.code).toBe(503);
    expect(e.data).toEqual({ retryAfterS: 5 });
  });

  test("the codes the client acts on are the contract's (docs/api.md)", () => {
    expect(Code.OK).toBe(200);
    expect(Code.LOGIN_EXPIRED).toBe(1002);
  });
});
