/*
 * The contract's plain constants, with no zod: the browser bundle imports this module directly (the
 * request wrapper, the upload backoff, the score detail), so zod stays in the development-only
 * contract check (src/api/validate.ts). The build fails if a production chunk carries zod.
 */

/** Codes carried in the `code` field of every answer. 200 and 1002 are the contract's (docs/api.md, "Conventions"). */
export const Code = {
  OK: 200,
  BAD_REQUEST: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA: 415,
  RATE_LIMITED: 429,
  SERVER_ERROR: 500,
  BUSY: 503,
  /** Wrong account or password: one message for both, so accounts cannot be probed. */
  BAD_CREDENTIALS: 1001,
  /** Missing, unknown or expired token (docs/api.md, "Conventions": 登录信息已失效). */
  LOGIN_EXPIRED: 1002,
} as const;
export type CodeValue = (typeof Code)[keyof typeof Code];

/**
 * Version of the result JSON the scorer writes now. 2 added the confidence-aware emotion fields
 * (`emotion.confidence`, `clear`, `arousalGap`, `targetArousal`) and `deliveryLikeness`; 3 added
 * `emotion.named`, `reading`, `energyAgreement`, `categoryAgreement` and leaves `confidence` out when
 * no percentage may be shown. Results of versions 1 and 2 (stored takes) still parse.
 */
export const SPEECH_SCORE_VERSION = 3 as const;
export const SPEECH_SCORE_VERSIONS = [1, 2, 3] as const;

/** Header of get_wx_login_status carrying qr_url's `pickupKey` (the call's parameters stay as docs/api.md gives them). */
export const QR_PICKUP_HEADER = 'qr-pickup-key';
