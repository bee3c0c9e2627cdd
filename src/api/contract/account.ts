import { z } from 'zod';

/**
 * A field's own message is the id of a row of the server's catalogue (src/i18n/server-messages.ts),
 * which the service words in the request's language (server/lib/validate.ts).
 */
export const loginPwdRequest = z.object({
  account: z.string().trim().min(1, 'input.enterAccount').max(64),
  password: z.string().min(1, 'input.enterPassword').max(128),
});
export type LoginPwdRequest = z.infer<typeof loginPwdRequest>;

export const user = z.object({
  id: z.string(),
  account: z.string(),
  nickname: z.string(),
});
export type User = z.infer<typeof user>;

/** userInfo: the data a successful login returns, token included (docs/api.md, "Sign-in"). */
export const userInfo = user.extend({
  token: z.string(),
  /** Seconds until the token expires (604 800, matching the cookie). */
  expiresIn: z.number().int(),
});
export type UserInfo = z.infer<typeof userInfo>;

/** GET /site_products/qr_url. The uuid travels in the link's query string (docs/api.md, "Sign-in"). */
export const qrUrlData = z.object({
  url: z.string(),
  /** Seconds until the login request expires (120). */
  expiresIn: z.number().int(),
  /**
   * The requesting screen's secret: the token is handed out only to a status poll that sends it back
   * in the QR_PICKUP_HEADER header. The QR code carries the uuid, never this.
   */
  pickupKey: z.string(),
});
export type QrUrlData = z.infer<typeof qrUrlData>;

export const wxLoginStatusRequest = z.object({
  uuid: z.string().min(16).max(64),
  /** Optional long-poll: hold the answer up to this many ms while nothing changes (max 25 000). */
  wait: z.coerce.number().int().min(0).max(25_000).optional(),
});
export type WxLoginStatusRequest = z.infer<typeof wxLoginStatusRequest>;

export const qrLoginState = z.enum(['waiting', 'scanned', 'confirmed', 'expired', 'cancelled', 'unknown']);
export type QrLoginState = z.infer<typeof qrLoginState>;

/**
 * GET /site_products/get_wx_login_status. `status` is truthy only on the one answer that hands
 * out the token (docs/api.md: success = truthy status and a token); later polls say `state: confirmed`
 * with `status: false` and no token.
 */
export const wxLoginStatusData = z.object({
  status: z.boolean(),
  state: qrLoginState,
  token: z.string().optional(),
  userInfo: userInfo.optional(),
});
export type WxLoginStatusData = z.infer<typeof wxLoginStatusData>;
