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
import { createSession, findSessionUser, SESSION_TTL_SECONDS } from '../../auth/sessions';
import type { Lang, StatementId } from '../../../src/i18n';
import { errorText, isErrorId } from '../../../src/i18n/errors';
import { html, page, type Raw } from '../../h5/html';
import { pageLang, wordsFor } from '../../h5/lang';
import { AppError, catalogueError } from '../../lib/app-error';
import { fail, ok } from '../../lib/reply';

const uuidField = z.string().regex(/^[A-Za-z0-9-]{16,64}$/, '二维码参数无效');
const confirmBody = z.object({
  uuid: uuidField,
  account: z.string().trim().max(64).optional(),
  password: z.string().max(128).optional(),
});
const cancelBody = z.object({ uuid: uuidField });

const COOKIE = 'user-token';
/** The phone pages' own cookie path (this plugin's routes live under /producer/h5). */
const H5_COOKIE_PATH = `${PRODUCER_BASE}/h5`;

/** The phone's own session, from the user-token cookie the web app sets on this origin. */
async function phoneUser(app: FastifyInstance, request: FastifyRequest): Promise<User | null> {
  const token = request.cookies[COOKIE];
  if (!token || token === 'undefined') return null;
  return findSessionUser(app.db, token);
}

const wantsJson = (request: FastifyRequest) =>
  (request.headers['content-type'] ?? '').includes('application/json');

function sendPage(reply: FastifyReply, status: number, lang: Lang, title: string, body: Raw) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-language', lang === 'zh' ? 'zh-CN' : 'en')
    .header('vary', 'Accept-Language')
    .send(page(title, body, lang));
}

function messagePage(reply: FastifyReply, status: number, lang: Lang, id: StatementId, ok = false) {
  const text = wordsFor(lang)(id);
  return sendPage(reply, status, lang, text, html`<h1 class="${ok ? 'ok' : 'error'}">${text}</h1>`);
}

function closedPage(reply: FastifyReply, lang: Lang, state: string) {
  if (state === 'unknown') return messagePage(reply, 404, lang, 'qr.invalid');
  if (state === 'expired') return messagePage(reply, 410, lang, 'qr.expired');
  if (state === 'cancelled') return messagePage(reply, 409, lang, 'qr.wasCancelled');
  return messagePage(reply, 409, lang, 'qr.wasConfirmed');
}

/** Why a confirmation was refused, in the page's language (the error catalogue's row). */
function refusal(err: AppError, lang: Lang): string {
  const named = (err.data as { msgId?: unknown } | null)?.msgId;
  if (isErrorId(named)) return errorText(named, lang);
  if (err.code === Code.BAD_CREDENTIALS) return errorText('error.badCredentials', lang);
  return lang === 'zh' ? err.message : errorText('error.badRequest', lang);
}

function confirmForm(uuid: string, lang: Lang, user: User | null, error?: string): Raw {
  const w = wordsFor(lang);
  const who = user
    ? html`<div class="card"><p>${w('qr.signInAs', { nickname: user.nickname, account: user.account })}</p></div>`
    : html`<label for="account">${w('qr.account')}</label>
        <input id="account" name="account" autocomplete="username" required>
        <label for="password">${w('qr.password')}</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required>`;
  return html`<h1>${w('qr.heading')}</h1>
    ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
    <form method="post" action="${`/producer/h5/qr/confirm?lang=${lang}`}">
      <input type="hidden" name="uuid" value="${uuid}">${who}
      <button class="primary" type="submit">${w('qr.confirm')}</button>
    </form>
    <form method="post" action="${`/producer/h5/qr/cancel?lang=${lang}`}">
      <input type="hidden" name="uuid" value="${uuid}">
      <button class="ghost" type="submit">${w('qr.cancel')}</button>
    </form>`;
}

/** The phone side of QR login: a server-rendered page (no SPA bundle) plus confirm and cancel. */
export async function h5QrRoutes(app: FastifyInstance): Promise<void> {
  app.get('/h5/qr', async (request, reply) => {
    const parsed = z.object({ uuid: uuidField }).safeParse(request.query);
    const lang = pageLang(request);
    if (!parsed.success) return closedPage(reply, lang, 'unknown');
    const { uuid } = parsed.data;
    const row = await findQrLogin(app.db, uuid);
    const state = effectiveState(row);
    if (state !== 'waiting' && state !== 'scanned') return closedPage(reply, lang, state);
    if (await markScanned(app.db, uuid)) await app.qrEvents.publish(uuid);
    return sendPage(
      reply,
      200,
      lang,
      wordsFor(lang)('qr.title'),
      confirmForm(uuid, lang, await phoneUser(app, request)),
    );
  });

  app.post('/h5/qr/confirm', { bodyLimit: 4 * 1024 }, async (request, reply) => {
    const json = wantsJson(request);
    const lang = pageLang(request);
    const parsed = confirmBody.safeParse(request.body ?? {});
    if (!parsed.success) {
      if (json) return reply.code(400).send(fail(Code.BAD_REQUEST, '参数错误：uuid 二维码参数无效'));
      return closedPage(reply, lang, 'unknown');
    }
    const { uuid, account, password } = parsed.data;
    const state = effectiveState(await findQrLogin(app.db, uuid));
    if (state !== 'waiting' && state !== 'scanned') {
      if (json)
        return reply.code(409).send(fail(Code.CONFLICT, `二维码状态为 ${state}，无法确认`, { state }));
      return closedPage(reply, lang, state);
    }
    let user = account && password ? null : await phoneUser(app, request);
    if (!user) {
      try {
        if (!account || !password) throw catalogueError(Code.BAD_REQUEST, 'error.enterCredentials');
        user = await checkPassword(app.db, account, password, request.ip);
      } catch (err) {
        if (json || !(err instanceof AppError)) throw err;
        return sendPage(
          reply,
          err.httpStatus,
          lang,
          wordsFor(lang)('qr.title'),
          confirmForm(uuid, lang, null, refusal(err, lang)),
        );
      }
      // Remember the phone, so the next scan needs one tap. httpOnly: no script on this origin can
      // read it; scoped to the phone pages, so it never shadows the web app's own user-token cookie
      // (which the app writes from script, and a browser refuses to overwrite an httpOnly cookie).
      const token = await createSession(app.db, user.id);
      reply.setCookie(COOKIE, token, {
        path: H5_COOKIE_PATH,
        maxAge: SESSION_TTL_SECONDS,
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
      });
    }
    if (!(await confirmQrLogin(app.db, uuid, user.id))) {
      const now = effectiveState(await findQrLogin(app.db, uuid));
      if (json)
        return reply.code(409).send(fail(Code.CONFLICT, `二维码状态为 ${now}，无法确认`, { state: now }));
      return closedPage(reply, lang, now);
    }
    await app.qrEvents.publish(uuid);
    if (json) return ok({ state: 'confirmed' }, '已确认登录');
    return messagePage(reply, 200, lang, 'qr.confirmed', true);
  });

  app.post('/h5/qr/cancel', { bodyLimit: 4 * 1024 }, async (request, reply) => {
    const json = wantsJson(request);
    const lang = pageLang(request);
    const parsed = cancelBody.safeParse(request.body ?? {});
    if (!parsed.success) {
      if (json) return reply.code(400).send(fail(Code.BAD_REQUEST, '参数错误：uuid 二维码参数无效'));
      return closedPage(reply, lang, 'unknown');
    }
    if (!(await cancelQrLogin(app.db, parsed.data.uuid))) {
      const state = effectiveState(await findQrLogin(app.db, parsed.data.uuid));
      if (json)
        return reply.code(409).send(fail(Code.CONFLICT, `二维码状态为 ${state}，无法取消`, { state }));
      return closedPage(reply, lang, state);
    }
    await app.qrEvents.publish(parsed.data.uuid);
    if (json) return ok({ state: 'cancelled' }, '已取消登录');
    return messagePage(reply, 200, lang, 'qr.cancelled', true);
  });
}
