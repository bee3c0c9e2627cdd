import { CALL_SCHEMAS } from './contract/call-schemas';
import type { CallName, RunCallName, WarmupCallName } from './contract/endpoints';

/**
 * Development-only check of every call against the contract (loaded with a dynamic import behind
 * `import.meta.env.DEV`, so production bundles carry no zod). A mismatch is logged, never thrown:
 * a learner must not lose a screen because a field drifted.
 */
export type Direction = 'request' | 'response';

/** Returns the issues found (empty when the value fits), after logging them. */
export function checkContract(
  name: CallName | RunCallName | WarmupCallName,
  direction: Direction,
  value: unknown,
): string[] {
  const schema = direction === 'request' ? CALL_SCHEMAS[name].req : CALL_SCHEMAS[name].res;
  if (!schema || value instanceof FormData) return [];
  const result = schema.safeParse(value ?? {});
  if (result.success) return [];
  const issues = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  console.error(`[contract] ${name} ${direction} does not match the contract:\n  ${issues.join('\n  ')}`);
  return issues;
}
