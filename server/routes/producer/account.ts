import type { FastifyInstance } from 'fastify';
import {
  ENDPOINTS,
  loginPwdRequest,
  QR_PICKUP_HEADER,
  type QrUrlData,
  SESSION_ENDPOINTS,
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
import { revokeAllSessions, revokeSession } from '../../auth/sessions';
import { publicBase } from '../../lib/public-url';
import { ok } from '../../lib/reply';
import { currentUser, requestToken } from '../../plugins/auth';
import type { ZodTypeProvider } from '../../plugins/schemas';

const MAX_WAIT_MS = 25_000;

/** Sign-in calls: password login, QR request and QR status (long poll), and logout. */
export async function accountRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const provider = qrProvider(app.config.qrProvider);
  // Long polls end early on shutdown so a graceful close does not wait for them.
  let shuttingDown = false;
  const shutdown = new AbortController();
  app.addHook('preClose', async () => {
    shuttingDown = true;
    shutdown.abort();
  });

  app.post(
    ENDPOINTS.accountLogin.path,
    {
      bodyLimit: 4 * 1024,
      config: { rateLimit: { max: app.config.loginRateLimitPerMinute, timeWindow: '1 minute' } },
      schema: { body: loginPwdRequest },
    },
    async (request) => {
      const { account, password } = request.body;
      const user = await checkPassword(app.db, account, password, request.ip);
      return ok(await issueUserInfo(app.db, user), '登录成功');
    },
  );

  // Idempotent: an unknown or expired token answers 200 too, so logging out never trips the client's
  // "session expired" handling (code 1002) on the way out.
  app.post(SESSION_ENDPOINTS.logout.path, { bodyLimit: 4 * 1024 }, async (request) => {
    const token = requestToken(request);
    if (token) await revokeSession(app.db, token);
    return ok(null, '已退出登录 (signed out)');
  });

  // Sign out everywhere: every session of the learner ends, on every device and instance.
  app.post(
    SESSION_ENDPOINTS.logoutAll.path,
    { bodyLimit: 4 * 1024, preValidation: app.authenticate },
    async (request) => {
      const ended = await revokeAllSessions(app.db, currentUser(request).id);
      return ok({ ended }, '已在所有设备上退出登录 (signed out everywhere)');
    },
  );

  app.get(
    ENDPOINTS.getAuthQRCode.path,
    { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
    async (request) => {
      const { uuid, pickupKey } = await createQrLogin(app.db);
      const data: QrUrlData = {
        url: provider.linkFor(uuid, publicBase(request)),
        expiresIn: QR_TTL_SECONDS,
        pickupKey,
      };
      return ok(data);
    },
  );

  // Long polls are cheap (a notice or one indexed read per 250 ms / 2 s), so they get a generous limit of their own.
  app.get(
    ENDPOINTS.getWxLoginStatus.path,
    {
      config: { rateLimit: { max: 240, timeWindow: '1 minute' } },
      schema: { querystring: wxLoginStatusRequest },
    },
    async (request) => {
      const { uuid, wait = 0 } = request.query;
      const header = request.headers[QR_PICKUP_HEADER];
      const pickupKey = Array.isArray(header) ? header[0] : header;
      const deadline = Date.now() + Math.min(wait, MAX_WAIT_MS);
      let closed = false;
      const gone = new AbortController();
      request.raw.once('close', () => {
        closed = true;
        gone.abort();
      });
      const stop = AbortSignal.any([gone.signal, shutdown.signal]);
      let row = await findQrLogin(app.db, uuid);
      const startState = effectiveState(row);
      // Hold the answer while nothing changes: wake on a change notice from whichever instance saw
      // it (app.qrEvents), and re-read the shared database now and then in any case.
      while (
        !closed &&
        !shuttingDown &&
        Date.now() < deadline &&
        row &&
        effectiveState(row) === startState &&
        (startState === 'waiting' || startState === 'scanned')
      ) {
        const wait = Math.min(app.qrEvents.fallbackPollMs, Math.max(0, deadline - Date.now()));
        await app.qrEvents.changed(uuid, wait, stop);
        row = await findQrLogin(app.db, uuid);
      }
      const state = effectiveState(row);
      if (row && state === 'confirmed') {
        const userInfo = await deliverOnce(app.db, row, pickupKey);
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
  confirmed:
    '已在手机上确认，登录凭证只发给出示二维码的屏幕 (confirmed; the sign-in goes to the screen that showed the code)',
  expired: '二维码已过期，请刷新',
  cancelled: '已在手机上取消登录',
  unknown: '二维码无效，请刷新',
};
