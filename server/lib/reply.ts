import { Code, type Envelope } from '../../src/api/contract';

/** The success envelope (docs/api.md, "Conventions": code 200 means success). */
export function ok<T>(data: T, msg = 'success'): Envelope<T> {
  return { code: Code.OK, msg, data };
}

export function fail(code: number, msg: string, data: unknown = null): Envelope<unknown> {
  return { code, msg, data };
}
