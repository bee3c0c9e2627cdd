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
import type { ServerMessageId } from '../../../src/i18n/server-messages';
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
import { requestLang, sayTo } from '../../lib/words';
import { currentUser, requestToken } from '../../plugins/auth';
import { clientAddress } from '../../plugins/request-log';
import type { ZodTypeProvider } from '../../plugins/schemas';

const MAX_WAIT_MS = 25_000;

/**
 * A QR request's row once its state changes, the deadline passes or `stopped()` says so (the
 * kiosk went away, a shutdown). While nothing changes the answer is held: it wakes on a change
 * notice from whichever instance saw it (app.qrEvents), and re-reads the shared database now and
 * then in any case.
 */
async function awaitChange(
  app: FastifyInstance,
  uuid: string,
  deadline: number,
  stop: AbortSignal,
  stopped: () => boolean,
) {
  let row = await findQrLogin(app.db, uuid);
  const startState = effectiveState(row);
  const open = startState === 'waiting' || startState === 'scanned';
  while (open && !stopped() && Date.now() < deadline && row && effectiveState(row) === startState) {
    const wait = Math.min(app.qrEvents.fallbackPollMs, Math.max(0, deadline - Date.now()));
    await app.qrEvents.changed(uuid, wait, stop);
    row = await findQrLogin(app.db, uuid);
  }
  return row;
}

const withZod = (fastify: FastifyInstance) => fastify.withTypeProvider<ZodTypeProvider>();
type ZodApp = ReturnType<typeof withZod>;

/** Password login, logout and logout everywhere. */
function passwordRoutes(app: ZodApp): void {
  app.post(
    ENDPOINTS.accountLogin.path,
    {
      bodyLimit: 4 * 1024,
      // Requests count in the general per-address budget; failed ones also in the sign-in limits'
      // (LOGIN_RATE_LIMIT_PER_MINUTE, server/auth/login-limiter.ts), which successes do not use up.
      schema: { body: loginPwdRequest },
    },
    async (request) => {
      const { account, password } = request.body;
      const user = await checkPassword(app.db, account, password, clientAddress(request), {
        failuresPerMinute: app.config.loginRateLimitPerMinute,
      });
      return ok(await issueUserInfo(app.db, user), sayTo(request, 'account.signedIn'));
    },
  );

  // Idempotent: an unknown or expired token answers 200 too, so logging out never trips the client's
  // "session expired" handling (code 1002) on the way out.
  app.post(SESSION_ENDPOINTS.logout.path, { bodyLimit: 4 * 1024 }, async (request) => {
    const token = requestToken(request);
    if (token) await revokeSession(app.db, token);
    return ok(null, sayTo(request, 'account.signedOut'));
  });

  // Sign out everywhere: every session of the learner ends, on every device and instance.
  app.post(
    SESSION_ENDPOINTS.logoutAll.path,
    { bodyLimit: 4 * 1024, preValidation: app.authenticate },
    async (request) => {
      const ended = await revokeAllSessions(app.db, currentUser(request).id);
      return ok({ ended }, sayTo(request, 'account.signedOutEverywhere'));
    },
  );
}

/** The QR request, and its status as a long poll that `shutdown` ends early. */
function qrRoutes(app: ZodApp, shutdown: AbortSignal): void {
  const provider = qrProvider(app.config.qrProvider);
  app.get(
    ENDPOINTS.getAuthQRCode.path,
    { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
    async (request) => {
      const { uuid, pickupKey } = await createQrLogin(app.db);
      const data: QrUrlData = {
        // The app sends the learner's chosen language (src/api/request.ts): the phone's page speaks it.
        url: provider.linkFor(uuid, publicBase(request), requestLang(request)),
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
      const stop = AbortSignal.any([gone.signal, shutdown]);
      const row = await awaitChange(app, uuid, deadline, stop, () => closed || shutdown.aborted);
      const state = effectiveState(row);
      if (row && state === 'confirmed') {
        const userInfo = await deliverOnce(app.db, row, pickupKey);
        if (userInfo) {
          const data: WxLoginStatusData = { status: true, state, token: userInfo.token, userInfo };
          return ok(data, sayTo(request, 'account.signedIn'));
        }
      }
      const data: WxLoginStatusData = { status: false, state };
      return ok(data, sayTo(request, STATE_MESSAGES[state]));
    },
  );
}

/** Sign-in calls: password login, QR request and QR status (long poll), and logout. */
export async function accountRoutes(fastify: FastifyInstance): Promise<void> {
  const app = withZod(fastify);
  // Long polls end early on shutdown so a graceful close does not wait for them.
  const shutdown = new AbortController();
  app.addHook('preClose', async () => {
    shutdown.abort();
  });
  passwordRoutes(app);
  qrRoutes(app, shutdown.signal);
}

/** Human messages per state; the client reads `state`, people read `msg`. */
const STATE_MESSAGES: Record<WxLoginStatusData['state'], ServerMessageId> = {
  waiting: 'qrState.waiting',
  scanned: 'qrState.scanned',
  confirmed: 'qrState.confirmed',
  expired: 'qrState.expired',
  cancelled: 'qrState.cancelled',
  unknown: 'qrState.unknown',
};
