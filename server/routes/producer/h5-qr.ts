import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Code, PRODUCER_BASE, type User } from '../../../src/api/contract';
import { checkPassword } from '../../auth/login';
import {
  cancelQrLogin,
  confirmQrLogin,
  effectiveState,
  findQrLogin,
  markScanned,
} from '../../auth/qr/qr-logins';
import {
  createSession,
  findSession,
  revokeAllSessions,
  revokeSession,
  SESSION_TTL_SECONDS,
} from '../../auth/sessions';
import type { SessionKind } from '../../db/schema';
import { sha256Hex } from '../../lib/ids';
import { html, page, type Raw } from '../../h5/html';
import { AppError } from '../../lib/app-error';
import { fail, ok } from '../../lib/reply';

const uuidField = z.string().regex(/^[A-Za-z0-9-]{16,64}$/, '二维码参数无效');
const confirmBody = z.object({
  uuid: uuidField,
  account: z.string().trim().max(64).optional(),
  password: z.string().max(128).optional(),
  /** "Stay signed in on this phone": the checkbox sends "1" (a form) or true (JSON). */
  keep: z.union([z.literal('1'), z.literal('on'), z.boolean()]).optional(),
});
const cancelBody = z.object({ uuid: uuidField });
const signoutBody = z.object({
  uuid: uuidField.optional(),
  everywhere: z.union([z.literal('1'), z.boolean()]).optional(),
});

const COOKIE = 'user-token';
/** The phone pages' own cookie path (this plugin's routes live under /producer/h5). */
const H5_COOKIE_PATH = `${PRODUCER_BASE}/h5`;

const phoneToken = (request: FastifyRequest): string | null => {
  const token = request.cookies[COOKIE];
  return token && token !== 'undefined' && token.length <= 200 ? token : null;
};

/** The phone's own session, from the user-token cookie the phone pages set (path /producer/h5). */
async function phoneSession(app: FastifyInstance, request: FastifyRequest) {
  const token = phoneToken(request);
  return token ? findSession(app.db, token) : null;
}

const wantsJson = (request: FastifyRequest) =>
  (request.headers['content-type'] ?? '').includes('application/json');

function sendPage(reply: FastifyReply, status: number, title: string, body: Raw) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(page(title, body));
}

function messagePage(reply: FastifyReply, status: number, zh: string, en: string, ok = false) {
  return sendPage(
    reply,
    status,
    zh,
    html`<h1 class="${ok ? 'ok' : 'error'}">${zh}</h1><p class="en">${en}</p>`,
  );
}

function closedPage(reply: FastifyReply, state: string) {
  if (state === 'unknown')
    return messagePage(reply, 404, '二维码无效', 'This QR code is not valid. Refresh it on the computer.');
  if (state === 'expired')
    return messagePage(
      reply,
      410,
      '二维码已过期，请在电脑上刷新',
      'This QR code has expired. Refresh it on the computer.',
    );
  if (state === 'cancelled') return messagePage(reply, 409, '已取消本次登录', 'This sign-in was cancelled.');
  return messagePage(reply, 409, '本次登录已确认', 'This sign-in has already been confirmed.');
}

/** Sign out on this phone, or everywhere; `uuid` brings the learner back to the open confirm page. */
function signoutForms(uuid?: string): Raw {
  const back = uuid ? html`<input type="hidden" name="uuid" value="${uuid}">` : '';
  return html`<form method="post" action="/producer/h5/signout">${back}
      <button class="ghost" type="submit">不是你？在这台手机上退出 <span class="en">Not you? Sign out on this phone</span></button>
    </form>
    <form method="post" action="/producer/h5/signout">${back}<input type="hidden" name="everywhere" value="1">
      <button class="ghost" type="submit">退出所有设备 <span class="en">Sign out everywhere</span></button>
    </form>`;
}

function confirmForm(uuid: string, user: User | null, error?: string): Raw {
  const who = user
    ? html`<div class="card"><p>将以 <b>${user.nickname}</b>（${user.account}）登录电脑端</p>
        <p class="en">You will sign in on the computer as ${user.nickname}.</p></div>`
    : html`<label for="account">账号 <span class="en">Account</span></label>
        <input id="account" name="account" autocomplete="username" required>
        <label for="password">密码 <span class="en">Password</span></label>
        <input id="password" name="password" type="password" autocomplete="current-password" required>
        <label class="check"><input type="checkbox" name="keep" value="1"> 在这台手机上保持登录
          <span class="en">Stay signed in on this phone (otherwise it signs out with the computer)</span></label>`;
  return html`<h1>确认登录电脑端</h1><p class="en">Confirm sign-in on your computer</p>
    ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
    <form method="post" action="/producer/h5/qr/confirm">
      <input type="hidden" name="uuid" value="${uuid}">${who}
      <button class="primary" type="submit">确认登录 <span class="en">Confirm</span></button>
    </form>
    <form method="post" action="/producer/h5/qr/cancel">
      <input type="hidden" name="uuid" value="${uuid}">
      <button class="ghost" type="submit">取消 <span class="en">Cancel</span></button>
    </form>${user ? signoutForms(uuid) : ''}`;
}

/** The phone side of QR login: a server-rendered page (no SPA bundle) plus confirm and cancel. */
export async function h5QrRoutes(app: FastifyInstance): Promise<void> {
  app.get('/h5/qr', async (request, reply) => {
    const parsed = z.object({ uuid: uuidField }).safeParse(request.query);
    if (!parsed.success) return closedPage(reply, 'unknown');
    const { uuid } = parsed.data;
    const row = await findQrLogin(app.db, uuid);
    const state = effectiveState(row);
    if (state !== 'waiting' && state !== 'scanned') return closedPage(reply, state);
    if (await markScanned(app.db, uuid)) await app.qrEvents.publish(uuid);
    const session = await phoneSession(app, request);
    return sendPage(reply, 200, '确认登录', confirmForm(uuid, session?.user ?? null));
  });

  app.post('/h5/qr/confirm', { bodyLimit: 4 * 1024 }, async (request, reply) => {
    const json = wantsJson(request);
    const parsed = confirmBody.safeParse(request.body ?? {});
    if (!parsed.success) {
      if (json) return reply.code(400).send(fail(Code.BAD_REQUEST, '参数错误：uuid 二维码参数无效'));
      return closedPage(reply, 'unknown');
    }
    const { uuid, account, password, keep } = parsed.data;
    const state = effectiveState(await findQrLogin(app.db, uuid));
    if (state !== 'waiting' && state !== 'scanned') {
      if (json)
        return reply.code(409).send(fail(Code.CONFLICT, `二维码状态为 ${state}，无法确认`, { state }));
      return closedPage(reply, state);
    }
    const session = account && password ? null : await phoneSession(app, request);
    let user = session?.user ?? null;
    // The phone session that ends with the kiosk's, unless the learner keeps it (sessions.ts).
    let endsWithKiosk = session?.kind === 'phone' ? session.tokenHash : null;
    if (!user) {
      try {
        if (!account || !password)
          throw new AppError(Code.BAD_REQUEST, '请输入账号和密码 (enter account and password)', 400);
        user = await checkPassword(app.db, account, password, request.ip);
      } catch (err) {
        if (json || !(err instanceof AppError)) throw err;
        return sendPage(reply, err.httpStatus, '确认登录', confirmForm(uuid, null, err.message));
      }
      // Remember the phone, so the next scan needs one tap. httpOnly: no script on this origin can
      // read it; scoped to the phone pages, so it never shadows the web app's own user-token cookie
      // (which the app writes from script, and a browser refuses to overwrite an httpOnly cookie).
      // Kept: 7 days; otherwise it ends with the computer's session, and the browser forgets it
      // when it closes.
      const kept = keep !== undefined && keep !== false;
      const kind: SessionKind = kept ? 'phone-kept' : 'phone';
      const token = await createSession(app.db, user.id, { kind });
      endsWithKiosk = kept ? null : sha256Hex(token);
      reply.setCookie(COOKIE, token, {
        path: H5_COOKIE_PATH,
        ...(kept ? { maxAge: SESSION_TTL_SECONDS } : {}),
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
      });
    }
    if (!(await confirmQrLogin(app.db, uuid, user.id, endsWithKiosk))) {
      const now = effectiveState(await findQrLogin(app.db, uuid));
      if (json)
        return reply.code(409).send(fail(Code.CONFLICT, `二维码状态为 ${now}，无法确认`, { state: now }));
      return closedPage(reply, now);
    }
    await app.qrEvents.publish(uuid);
    if (json) return ok({ state: 'confirmed' }, '已确认登录');
    return sendPage(
      reply,
      200,
      '已确认，请回到电脑继续',
      html`<h1 class="ok">已确认，请回到电脑继续</h1><p class="en">Confirmed. Continue on your computer.</p>
        ${
          endsWithKiosk
            ? html`<p>电脑端退出时，这台手机也会退出。</p><p class="en">This phone signs out when the computer does.</p>`
            : ''
        }${signoutForms()}`,
    );
  });

  // The phone's sign-out: ends this phone's session (or every session of the learner) and forgets
  // the cookie. Back to the open confirm page when there is one, signed out.
  app.post('/h5/signout', { bodyLimit: 4 * 1024 }, async (request, reply) => {
    const json = wantsJson(request);
    const parsed = signoutBody.safeParse(request.body ?? {});
    const { uuid, everywhere } = parsed.success ? parsed.data : {};
    const token = phoneToken(request);
    const session = token ? await findSession(app.db, token) : null;
    if (session && everywhere !== undefined && everywhere !== false)
      await revokeAllSessions(app.db, session.user.id);
    else if (token) await revokeSession(app.db, token);
    reply.clearCookie(COOKIE, {
      path: H5_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
    });
    const everywhereDone = Boolean(session && everywhere !== undefined && everywhere !== false);
    const [zh, en] = everywhereDone
      ? ['已在所有设备上退出登录', 'Signed out everywhere.']
      : ['已在这台手机上退出登录', 'Signed out on this phone.'];
    if (json) return ok(null, `${zh} (${en.replace(/\.$/, '').toLowerCase()})`);
    if (uuid) {
      const state = effectiveState(await findQrLogin(app.db, uuid));
      if (state === 'waiting' || state === 'scanned')
        return sendPage(
          reply,
          200,
          '确认登录',
          html`<p class="ok" role="status">${zh} <span class="en">${en}</span></p>${confirmForm(uuid, null)}`,
        );
    }
    return messagePage(reply, 200, zh, en, true);
  });

  app.post('/h5/qr/cancel', { bodyLimit: 4 * 1024 }, async (request, reply) => {
    const json = wantsJson(request);
    const parsed = cancelBody.safeParse(request.body ?? {});
    if (!parsed.success) {
      if (json) return reply.code(400).send(fail(Code.BAD_REQUEST, '参数错误：uuid 二维码参数无效'));
      return closedPage(reply, 'unknown');
    }
    if (!(await cancelQrLogin(app.db, parsed.data.uuid))) {
      const state = effectiveState(await findQrLogin(app.db, parsed.data.uuid));
      if (json)
        return reply.code(409).send(fail(Code.CONFLICT, `二维码状态为 ${state}，无法取消`, { state }));
      return closedPage(reply, state);
    }
    await app.qrEvents.publish(parsed.data.uuid);
    if (json) return ok({ state: 'cancelled' }, '已取消登录');
    return messagePage(reply, 200, '已取消本次登录', 'Sign-in cancelled.', true);
  });
}
