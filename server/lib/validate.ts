import type { z } from 'zod';
import { Code } from '../../src/api/contract';
import { AppError } from './app-error';

/**
 * Parses a request part with a contract schema. Unknown fields are stripped (zod objects strip by
 * default); a failure answers code 400 naming the first wrong field, with every issue in data.issues.
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({
    path: i.path.map(String).join('.') || '(body)',
    message: i.message,
  }));
  const first = issues[0];
  throw new AppError(Code.BAD_REQUEST, `参数错误：${first.path} ${first.message}`, 400, {
    field: first.path,
    issues,
  });
}
