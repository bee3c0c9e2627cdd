import { z } from 'zod';

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
