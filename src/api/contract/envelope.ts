import { z } from 'zod';

/** Codes carried in the `code` field of every answer. 200 and 1002 come from the spec (§9). */
export const Code = {
  OK: 200,
  BAD_REQUEST: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA: 415,
  RATE_LIMITED: 429,
  SERVER_ERROR: 500,
  BUSY: 503,
  /** Wrong account or password: one message for both, so accounts cannot be probed. */
  BAD_CREDENTIALS: 1001,
  /** Missing, unknown or expired token (spec §8: 登录信息已失效). */
  LOGIN_EXPIRED: 1002,
} as const;
export type CodeValue = (typeof Code)[keyof typeof Code];

/** Every answer of both services, errors included: `{code, msg, data}`. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.number().int(), msg: z.string(), data });

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

/** A validation error names the field that is wrong, so a person can fix it. */
export const fieldErrorData = z.object({
  field: z.string().optional(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type FieldErrorData = z.infer<typeof fieldErrorData>;
