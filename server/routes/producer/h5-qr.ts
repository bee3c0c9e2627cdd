import cookie from '@fastify/cookie';
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
import type { Lang, StatementId } from '../../../src/i18n';
import { esc, html, page, type Raw, raw } from '../../h5/html';
import { pageLang, phoneHeader, productName, type Words, wordsFor } from '../../h5/lang';
import { AppError, catalogueError } from '../../lib/app-error';
import { inputError } from '../../lib/validate';
import { said, sayTo } from '../../lib/words';
import { fail, ok } from '../../lib/reply';
import { clientAddress } from '../../plugins/request-log';

const uuidField = z.string().regex(/^[A-Za-z0-9-]{16,64}$/, 'input.qrCode');

/** A JSON confirm or cancel without a valid QR code: the 400 of a refused field (server/lib/validate.ts). */
const badQrCode = () => inputError([{ path: 'uuid', problem: said('input.qrCode') }]);
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

/** A phone page: its language (the link's `lang`, else the phone's), worded from the catalogue. */
interface PageWords {
  lang: Lang;
  w: Words;
  /** The forms post back in the page's language. */
  query: string;
  /** The product's name and the language switch (server/h5/lang.ts). */
  top: Raw;
}

function pageWords(request: FastifyRequest): PageWords {
  const lang = pageLang(request);
  return { lang, w: wordsFor(lang), query: `?lang=${lang}`, top: phoneHeader(request, lang) };
}

function sendPage(reply: FastifyReply, status: number, p: PageWords, title: string, body: Raw) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-language', p.lang)
    .header('vary', 'Accept-Language')
    .send(page(title, body, p.lang, p.top));
}

function messagePage(reply: FastifyReply, status: number, p: PageWords, text: string, ok = false) {
  return sendPage(reply, status, p, text, html`<h1 class="${ok ? 'ok' : 'error'}">${text}</h1>`);
}

const CLOSED: Record<string, { status: number; id: StatementId }> = {
  unknown: { status: 404, id: 'qr.invalid' },
  expired: { status: 410, id: 'qr.expired' },
  cancelled: { status: 409, id: 'qr.wasCancelled' },
};

function closedPage(reply: FastifyReply, p: PageWords, state: string) {
  const closed = CLOSED[state] ?? { status: 409, id: 'qr.wasConfirmed' };
  return messagePage(reply, closed.status, p, p.w(closed.id));
}

/** Sign out on this phone, or everywhere; `uuid` brings the learner back to the open confirm page. */
function signoutForms(p: PageWords, uuid?: string): Raw {
  const back = uuid ? html`<input type="hidden" name="uuid" value="${uuid}">` : '';
  return html`<form method="post" action="/producer/h5/signout${p.query}">${back}
      <button class="ghost" type="submit">${p.w('qr.notYou')}</button>
    </form>
    <form method="post" action="/producer/h5/signout${p.query}">${back}<input type="hidden" name="everywhere" value="1">
      <button class="ghost" type="submit">${p.w('qr.signOutEverywhere')}</button>
    </form>`;
}

function confirmForm(p: PageWords, uuid: string, user: User | null, error?: string): Raw {
  // The catalogue's sentence is trusted text; the learner's names in it are escaped (and the
  // nickname set in bold).
  const who = user
    ? html`<div class="card"><p>${raw(
        p.w('qr.signInAs', { nickname: html`<b>${user.nickname}</b>`.html, account: esc(user.account) }),
      )}</p></div>`
    : html`<label for="account">${p.w('qr.account')}</label>
        <input id="account" name="account" autocomplete="username" required>
        <label for="password">${p.w('qr.password')}</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required>
        <label class="check"><input type="checkbox" name="keep" value="1"><span>${p.w('qr.keepSignedIn')}</span></label>`;
  return html`<h1>${p.w('qr.heading')}</h1>
    <p>${p.w('qr.explain', { product: productName(p.lang) })}</p>
    ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
    <form method="post" action="/producer/h5/qr/confirm${p.query}">
      <input type="hidden" name="uuid" value="${uuid}">${who}
      <button class="primary" type="submit">${p.w('qr.confirm')}</button>
    </form>
    <form method="post" action="/producer/h5/qr/cancel${p.query}">
      <input type="hidden" name="uuid" value="${uuid}">
      <button class="ghost" type="submit">${p.w('qr.cancel')}</button>
    </form>${user ? signoutForms(p, uuid) : ''}`;
}

/** A QR request no longer open: 409 with its state (JSON), else the page that says so. */
function notOpen(
  request: FastifyRequest,
  reply: FastifyReply,
  p: PageWords,
  state: string,
  id: 'qrLogin.cannotConfirm' | 'qrLogin.cannotCancel',
) {
  if (wantsJson(request))
    return reply.code(409).send(fail(Code.CONFLICT, sayTo(request, id, { state }), { state }));
  return closedPage(reply, p, state);
}

/**
 * Remembers the phone, so the next scan needs one tap; returns the session's hash when it ends with
 * the kiosk's. httpOnly: no script on this origin can read it; scoped to the phone pages, so it never
 * shadows the web app's own user-token cookie (which the app writes from script, and a browser
 * refuses to overwrite an httpOnly cookie). Kept: 7 days; otherwise it ends with the computer's
 * session, and the browser forgets it when it closes.
 */
async function signInPhone(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  kept: boolean,
): Promise<string | null> {
  const kind: SessionKind = kept ? 'phone-kept' : 'phone';
  const token = await createSession(app.db, userId, { kind });
  reply.setCookie(COOKIE, token, {
    path: H5_COOKIE_PATH,
    ...(kept ? { maxAge: SESSION_TTL_SECONDS } : {}),
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
  });
  return kept ? null : sha256Hex(token);
}

/** The confirm page: the phone's own session if it has one, else account and password. */
async function showConfirm(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  const p = pageWords(request);
  const parsed = z.object({ uuid: uuidField }).safeParse(request.query);
  if (!parsed.success) return closedPage(reply, p, 'unknown');
  const { uuid } = parsed.data;
  const state = effectiveState(await findQrLogin(app.db, uuid));
  if (state !== 'waiting' && state !== 'scanned') return closedPage(reply, p, state);
  if (await markScanned(app.db, uuid)) await app.qrEvents.publish(uuid);
  const session = await phoneSession(app, request);
  return sendPage(reply, 200, p, p.w('qr.title'), confirmForm(p, uuid, session?.user ?? null));
}

/** Confirms the sign-in for the kiosk that showed the code, signing the phone in first if needed. */
async function confirm(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  const json = wantsJson(request);
  const p = pageWords(request);
  const parsed = confirmBody.safeParse(request.body ?? {});
  if (!parsed.success) {
    if (json) throw badQrCode();
    return closedPage(reply, p, 'unknown');
  }
  const { uuid, account, password, keep } = parsed.data;
  const state = effectiveState(await findQrLogin(app.db, uuid));
  if (state !== 'waiting' && state !== 'scanned')
    return notOpen(request, reply, p, state, 'qrLogin.cannotConfirm');
  const session = account && password ? null : await phoneSession(app, request);
  let user = session?.user ?? null;
  // The phone session that ends with the kiosk's, unless the learner keeps it (sessions.ts).
  let endsWithKiosk = session?.kind === 'phone' ? session.tokenHash : null;
  if (!user) {
    try {
      if (!account || !password)
        throw catalogueError(Code.BAD_REQUEST, 'error.enterCredentials', { status: 400 });
      user = await checkPassword(app.db, account, password, clientAddress(request), {
        failuresPerMinute: app.config.loginRateLimitPerMinute,
      });
    } catch (err) {
      if (json || !(err instanceof AppError)) throw err;
      const form = confirmForm(p, uuid, null, err.msgIn(p.lang));
      return sendPage(reply, err.httpStatus, p, p.w('qr.title'), form);
    }
    endsWithKiosk = await signInPhone(app, request, reply, user.id, keep !== undefined && keep !== false);
  }
  if (!(await confirmQrLogin(app.db, uuid, user.id, endsWithKiosk))) {
    const now = effectiveState(await findQrLogin(app.db, uuid));
    return notOpen(request, reply, p, now, 'qrLogin.cannotConfirm');
  }
  await app.qrEvents.publish(uuid);
  if (json) return ok({ state: 'confirmed' }, sayTo(request, 'qrLogin.confirmed'));
  const done = p.w('qr.confirmed');
  return sendPage(
    reply,
    200,
    p,
    done,
    html`<h1 class="ok">${done}</h1>
      ${endsWithKiosk ? html`<p>${p.w('qr.endsWithComputer')}</p>` : ''}${signoutForms(p)}`,
  );
}

/**
 * The phone's sign-out: ends this phone's session (or every session of the learner) and forgets
 * the cookie. Back to the open confirm page when there is one, signed out.
 */
async function signOut(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  const parsed = signoutBody.safeParse(request.body ?? {});
  const { uuid, everywhere } = parsed.success ? parsed.data : {};
  const token = phoneToken(request);
  const session = token ? await findSession(app.db, token) : null;
  const everywhereDone = Boolean(session && everywhere !== undefined && everywhere !== false);
  if (session && everywhereDone) await revokeAllSessions(app.db, session.user.id);
  else if (token) await revokeSession(app.db, token);
  reply.clearCookie(COOKIE, {
    path: H5_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
  });
  const p = pageWords(request);
  const done = sayTo(request, everywhereDone ? 'account.signedOutEverywhere' : 'account.signedOutHere');
  if (wantsJson(request)) return ok(null, done);
  if (uuid) {
    const state = effectiveState(await findQrLogin(app.db, uuid));
    if (state === 'waiting' || state === 'scanned') {
      const body = html`<p class="ok" role="status">${done}</p>${confirmForm(p, uuid, null)}`;
      return sendPage(reply, 200, p, p.w('qr.title'), body);
    }
  }
  return messagePage(reply, 200, p, done, true);
}

async function cancel(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  const p = pageWords(request);
  const parsed = cancelBody.safeParse(request.body ?? {});
  if (!parsed.success) {
    if (wantsJson(request)) throw badQrCode();
    return closedPage(reply, p, 'unknown');
  }
  if (!(await cancelQrLogin(app.db, parsed.data.uuid))) {
    const state = effectiveState(await findQrLogin(app.db, parsed.data.uuid));
    return notOpen(request, reply, p, state, 'qrLogin.cannotCancel');
  }
  await app.qrEvents.publish(parsed.data.uuid);
  if (wantsJson(request)) return ok({ state: 'cancelled' }, sayTo(request, 'qrLogin.cancelled'));
  return messagePage(reply, 200, p, p.w('qr.cancelled'), true);
}

/** The phone side of QR login: a server-rendered page (no SPA bundle) plus confirm, cancel and sign-out. */
export async function h5QrRoutes(app: FastifyInstance): Promise<void> {
  // Only these routes read or set a cookie: the other calls skip its two hooks per request.
  await app.register(cookie);
  const form = { bodyLimit: 4 * 1024 };
  app.get('/h5/qr', (request, reply) => showConfirm(app, request, reply));
  app.post('/h5/qr/confirm', form, (request, reply) => confirm(app, request, reply));
  app.post('/h5/signout', form, (request, reply) => signOut(app, request, reply));
  app.post('/h5/qr/cancel', form, (request, reply) => cancel(app, request, reply));
}
