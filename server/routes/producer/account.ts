import type { FastifyInstance } from 'fastify';
import {
  ENDPOINTS,
  loginPwdRequest,
  type QrUrlData,
  type WxLoginStatusData,
  wxLoginStatusRequest,
} from '../../../src/api/contract';
import { checkPassword, issueUserInfo } from '../../auth/login';
import { qrProvider } from '../../auth/qr/provider';
import {
  createQrLogin,
  deliverOnce,
  effectiveState,
  findQrLogin,
  QR_TTL_SECONDS,
} from '../../auth/qr/qr-logins';
import { publicBase } from '../../lib/public-url';
import { ok } from '../../lib/reply';
import { validate } from '../../lib/validate';

const POLL_INTERVAL_MS = 250;
const MAX_WAIT_MS = 25_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sign-in calls: password login, QR request and QR status (long poll). */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const provider = qrProvider(app.config.qrProvider);
  // Long polls end early on shutdown so a graceful close does not wait for them.
  let shuttingDown = false;
  app.addHook('preClose', async () => {
    shuttingDown = true;
  });

  app.post(
    ENDPOINTS.accountLogin.path,
    {
      bodyLimit: 4 * 1024,
      config: { rateLimit: { max: app.config.loginRateLimitPerMinute, timeWindow: '1 minute' } },
    },
    async (request) => {
      const { account, password } = validate(loginPwdRequest, request.body);
      const user = await checkPassword(app.db, account, password, request.ip);
      return ok(await issueUserInfo(app.db, user), '登录成功');
    },
  );

  app.get(
    ENDPOINTS.getAuthQRCode.path,
    { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
    async (request) => {
      const uuid = await createQrLogin(app.db);
      const data: QrUrlData = { url: provider.linkFor(uuid, publicBase(request)), expiresIn: QR_TTL_SECONDS };
      return ok(data);
    },
  );

  // Long polls are cheap (one indexed read per 250 ms), so they get a generous limit of their own.
  app.get(
    ENDPOINTS.getWxLoginStatus.path,
    { config: { rateLimit: { max: 240, timeWindow: '1 minute' } } },
    async (request) => {
      const { uuid, wait = 0 } = validate(wxLoginStatusRequest, request.query);
      const deadline = Date.now() + Math.min(wait, MAX_WAIT_MS);
      let closed = false;
      request.raw.once('close', () => {
        closed = true;
      });
      let row = await findQrLogin(app.db, uuid);
      const startState = effectiveState(row);
      // Hold the answer while nothing changes, polling the shared database so any instance's
      // confirmation is seen.
      while (
        !closed &&
        !shuttingDown &&
        Date.now() < deadline &&
        row &&
        effectiveState(row) === startState &&
        (startState === 'waiting' || startState === 'scanned')
      ) {
        await sleep(Math.min(POLL_INTERVAL_MS, Math.max(0, deadline - Date.now())));
        row = await findQrLogin(app.db, uuid);
      }
      const state = effectiveState(row);
      if (row && state === 'confirmed') {
        const userInfo = await deliverOnce(app.db, row);
        if (userInfo) {
          const data: WxLoginStatusData = { status: true, state, token: userInfo.token, userInfo };
          return ok(data, '登录成功');
        }
      }
      const data: WxLoginStatusData = { status: false, state };
      return ok(data, STATE_MESSAGES[state]);
    },
  );
}

/** Human messages per state; the client reads `state`, people read `msg`. */
const STATE_MESSAGES: Record<WxLoginStatusData['state'], string> = {
  waiting: '等待扫码',
  scanned: '已扫码，请在手机上确认',
  confirmed: '已确认（登录凭证已发放）',
  expired: '二维码已过期，请刷新',
  cancelled: '已在手机上取消登录',
  unknown: '二维码无效，请刷新',
};
