import type { z } from 'zod';
import { Code } from '../../src/api/contract';
import type { Lang } from '../../src/i18n';
import { isServerMessageId } from '../../src/i18n/server-messages';
import { AppError, bothLanguages } from './app-error';
import { type Said, said, say } from './words';

/** One problem of the input: where, and what to do about it (in the request's language). */
export interface InputIssue {
  path: string;
  message: string;
}

/** A problem: a sentence of the catalogue, or a schema's own text, said as it is. */
type Problem = Said | { text: string };

const wordProblem = (p: Problem, lang: Lang) => ('text' in p ? p.text : say(p, lang));

/**
 * The 400 of a refused input: `msg` names the first wrong field and its problem, `data.issues` every
 * field's, all worded in the request's language when the answer is sent.
 */
class InputError extends AppError {
  constructor(private readonly problems: Array<{ path: string; problem: Problem }>) {
    const first = problems[0];
    const p = first.problem;
    const headline = said('input.invalid', { field: first.path, problem: 'text' in p ? p.text : p });
    super(Code.BAD_REQUEST, bothLanguages(headline), 400, issuesIn(problems, 'zh'), headline);
  }

  override dataIn(lang: Lang): { field: string; issues: InputIssue[] } {
    return issuesIn(this.problems, lang);
  }
}

function issuesIn(problems: Array<{ path: string; problem: Problem }>, lang: Lang) {
  return {
    field: problems[0].path,
    issues: problems.map((p) => ({ path: p.path, message: wordProblem(p.problem, lang) })),
  };
}

/** The 400 of refused input, for checks of its own that a schema cannot make (a film's answers). */
export function inputError(problems: Array<{ path: string; problem: Problem }>): AppError {
  return new InputError(problems);
}

const badInput = inputError;

/**
 * Bounds on the shape of any input (JSON body, form, query): a contract request nests a few levels
 * and holds a few hundred values at most, so anything deeper or bigger is refused before it is
 * walked or validated. Each check below is one linear pass.
 */
export const INPUT_BOUNDS = { depth: 16, nodes: 20_000 } as const;

// Bounds are quoted as written (String), not grouped as a figure ("20000", not "20,000").
const tooDeep = (): AppError =>
  badInput([{ path: '(body)', problem: said('input.tooDeep', { limit: String(INPUT_BOUNDS.depth) }) }]);

const tooMany = (): AppError =>
  badInput([{ path: '(body)', problem: said('input.tooMany', { limit: String(INPUT_BOUNDS.nodes) }) }]);

/**
 * Throws the 400 of a JSON text nested deeper than INPUT_BOUNDS.depth, before it is parsed: one pass
 * over the characters, brackets inside strings ignored. JSON.parse and the walks after it then never
 * see a hostile depth.
 */
export function checkJsonDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > INPUT_BOUNDS.depth) throw tooDeep();
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/**
 * The one rule for text input: no NUL character anywhere (a key or a value, at any depth). Nobody
 * types one, PostgreSQL cannot store one in text (`invalid byte sequence for encoding "UTF8": 0x00`)
 * and file-system paths end at one, so it is refused before any engine sees it.
 * Returns the path of the first NUL, or null; throws the 400 of an input deeper or bigger than
 * INPUT_BOUNDS. Linear in the input: each value is visited once and remembers only its parent, the
 * path is spelled out for the one value that is refused.
 */
export function findNul(input: unknown): string | null {
  // Iterative, with parent links instead of a copied path per value (a copy per level made a deeply
  // nested body cost the square of its size).
  interface Node {
    value: unknown;
    key: string;
    parent: Node | null;
    depth: number;
  }
  const pathOf = (node: Node | null, last?: string): string => {
    const keys: string[] = last === undefined ? [] : [last];
    for (let n = node; n?.parent; n = n.parent) keys.push(n.key);
    return keys.reverse().join('.') || '(body)';
  };
  const stack: Node[] = [{ value: input, key: '', parent: null, depth: 0 }];
  let visited = 0;
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (++visited > INPUT_BOUNDS.nodes) throw tooMany();
    const { value } = node;
    if (typeof value === 'string') {
      if (value.includes('\0')) return pathOf(node);
    } else if (value !== null && typeof value === 'object') {
      if (node.depth >= INPUT_BOUNDS.depth) throw tooDeep();
      const keys = Object.keys(value);
      if (keys.length > INPUT_BOUNDS.nodes) throw tooMany();
      for (let k = keys.length - 1; k >= 0; k--) {
        const key = keys[k];
        if (key.includes('\0')) return pathOf(node, key.replaceAll('\0', '\\0'));
        stack.push({
          value: (value as Record<string, unknown>)[key],
          key,
          parent: node,
          depth: node.depth + 1,
        });
      }
    }
  }
  return null;
}

/** The refusal of findNul()'s find. */
export function nulError(path: string): AppError {
  return badInput([{ path, problem: said('input.nul') }]);
}

// --- Messages for zod issues --------------------------------------------------------------------

type AnySchema = { def?: Record<string, unknown> } & Record<string, unknown>;

/** The number schema at `path` inside `schema`, through objects, arrays and optional/default wrappers. */
function numberAt(schema: unknown, path: PropertyKey[]): AnySchema | null {
  let node = schema as AnySchema | undefined;
  let rest = [...path];
  for (let guard = 0; node && guard < 64; guard++) {
    const def = node.def as { type?: string; [k: string]: unknown } | undefined;
    if (!def) return null;
    if (
      ['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional'].includes(
        def.type ?? '',
      )
    ) {
      node = def.innerType as AnySchema;
    } else if (def.type === 'pipe') node = def.in as AnySchema;
    else if (def.type === 'object' && rest.length > 0) {
      node = (def.shape as Record<string, AnySchema>)[String(rest[0])];
      rest = rest.slice(1);
    } else if (def.type === 'array' && rest.length > 0) {
      node = def.element as AnySchema;
      rest = rest.slice(1);
    } else return rest.length === 0 && def.type === 'number' ? node : null;
  }
  return null;
}

/** A bound worth telling a person: not the safe-integer limit zod's int() adds by itself. */
const told = (n: unknown): n is number =>
  typeof n === 'number' && Number.isFinite(n) && Math.abs(n) < Number.MAX_SAFE_INTEGER;

/** "between a and b" from the schema's own bounds, so a value like 1e20 is told the real range. */
function numberRange(schema: unknown, path: PropertyKey[]): Said {
  const n = numberAt(schema, path);
  const min = n?.minValue;
  const max = n?.maxValue;
  if (told(min) && told(max)) return said('input.between', { min: String(min), max: String(max) });
  if (told(max)) return said('input.atMost', { max: String(max) });
  if (told(min)) return said('input.atLeast', { min: String(min) });
  return said('input.outOfRange');
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/**
 * The message zod gives an issue when the schema set none (the per-parse error map below ranks under a
 * schema's own message), so describeIssue() can tell the two apart.
 */
const DEFAULT_MESSAGE = '\u0000default';

/** A zod issue as a problem a person can act on; the field itself is named by the caller. */
function describeIssue(issue: z.core.$ZodIssue, schema: unknown, input: unknown): Problem {
  // A schema's own message is a row of the catalogue (the contract names its id,
  // z.string().min(1, 'input.enterAccount')), or text written for people, used as it is.
  if (issue.message !== DEFAULT_MESSAGE)
    return isServerMessageId(issue.message) ? said(issue.message) : { text: issue.message };
  const given = valueAt(input, issue.path);
  // Limits and values are quoted as written (String), not as figures of the language.
  switch (issue.code) {
    case 'invalid_type':
      if (given === undefined || given === null || given === '') return said('input.required');
      return said('input.mustBe', { type: issue.expected });
    case 'too_big':
    case 'too_small': {
      const limit = String(issue.code === 'too_big' ? issue.maximum : issue.minimum);
      if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint') {
        if (issue.origin !== 'bigint' && (given === '' || given === undefined)) return said('input.required');
        return numberRange(schema, issue.path);
      }
      const more = issue.code === 'too_big';
      if (issue.origin === 'string') {
        if (more) return said('input.maxChars', { limit });
        return Number(limit) <= 1 ? said('input.notEmpty') : said('input.minChars', { limit });
      }
      if (issue.origin === 'array' || issue.origin === 'set')
        return said(more ? 'input.maxItems' : 'input.minItems', { limit });
      return said(more ? 'input.tooBig' : 'input.tooSmall', { limit });
    }
    case 'invalid_value':
      return said('input.oneOf', { options: issue.values.map((v) => String(v)).join(', ') });
    case 'invalid_format':
      return said('input.format', { format: issue.format });
    case 'not_multiple_of':
      return said('input.multipleOf', { divisor: String(issue.divisor) });
    case 'unrecognized_keys':
      return said('input.unknownFields', { keys: issue.keys.join(', ') });
    default:
      return said('input.invalidValue');
  }
}

/**
 * The one formatter of validation failures: code 400 naming the first wrong field, with every issue
 * in data.issues (one per field: zod may report a value twice, e.g. 1e20 against int() and max()).
 */
export function validationError(error: z.ZodError, schema?: unknown, input?: unknown): AppError {
  const seen = new Set<string>();
  const problems: Array<{ path: string; problem: Problem }> = [];
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.') || '(body)';
    if (seen.has(path)) continue;
    seen.add(path);
    problems.push({ path, problem: describeIssue(issue, schema, input) });
  }
  return badInput(problems);
}

/**
 * The one check of request input against a contract schema, used by route schemas
 * (server/plugins/schemas.ts) and by validate() below. Unknown fields are stripped (zod objects strip
 * by default); a failure is the AppError of validationError(), a NUL character that of nulError().
 * `nulChecked`: the caller has already run findNul() on this input (route input, in the app-schemas
 * hook), so it is not walked twice.
 */
export function checkInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  opts: { nulChecked?: boolean } = {},
): { value: z.infer<S>; error?: undefined } | { error: AppError } {
  if (!opts.nulChecked) {
    let nul: string | null;
    try {
      nul = findNul(input);
    } catch (err) {
      if (err instanceof AppError) return { error: err };
      throw err;
    }
    if (nul !== null) return { error: nulError(nul) };
  }
  const parsed = schema.safeParse(input ?? {}, { error: () => DEFAULT_MESSAGE });
  return parsed.success ? { value: parsed.data } : { error: validationError(parsed.error, schema, input) };
}

/**
 * Parses input that no route schema can describe (the text fields of a streamed multipart upload);
 * throws the AppError of checkInput().
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const checked = checkInput(schema, input);
  if (checked.error) throw checked.error;
  return checked.value;
}
