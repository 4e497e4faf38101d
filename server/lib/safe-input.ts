// Input every transport refuses at its door (docs/decisions.md "Security"), before any schema sees it:
// - the NUL character (U+0000), which PostgreSQL text cannot hold (a query with it fails: a 500);
// - lone UTF-16 surrogates (`"\ud800"` in JSON), which are no Unicode text: jsonb refuses them (a 500);
// - the object keys __proto__, constructor and prototype, which parsers drop or trip over
//   (zod strips __proto__ silently, superjson refuses to serialise all three);
// - objects and arrays nested deeper than MAX_NESTING, which overflow the stack of recursive code.
import { Errors, type FieldError } from './errors';

const NUL = '\u0000';
/** In `u` mode a surrogate pair is one code point, so this matches only unpaired halves. */
const LONE_SURROGATE = /\p{Surrogate}/u;
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * How deep objects and arrays may nest. Real inputs are a few levels deep; far deeper JSON (a 1 MiB
 * body holds 500,000 levels) would exhaust the stack of every recursive reader after this one (a
 * 500), so it is refused here, by a walk that does not recurse itself.
 */
export const MAX_NESTING = 64;

interface Findings {
  nul: string | null;
  surrogate: string | null;
  reserved: string | null;
  tooDeep: string | null;
}

/** One iterative, depth-first pass in document order: the first NUL, reserved key and too-deep value. */
function inspect(value: unknown): Findings {
  const found: Findings = { nul: null, surrogate: null, reserved: null, tooDeep: null };
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value: item, path, depth } = next;
    if (typeof item === 'string') {
      if (item.includes(NUL)) found.nul ??= path || '(input)';
      if (LONE_SURROGATE.test(item)) found.surrogate ??= path || '(input)';
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    if (depth >= MAX_NESTING) {
      found.tooDeep ??= path || '(input)';
      continue;
    }
    const children: { value: unknown; path: string; depth: number }[] = [];
    if (Array.isArray(item)) {
      item.forEach((child, i) => {
        children.push({ value: child, path: `${path}[${i}]`, depth: depth + 1 });
      });
    } else {
      for (const [key, child] of Object.entries(item)) {
        const at = path ? `${path}.${key}` : key;
        if (key.includes(NUL)) found.nul ??= at;
        if (LONE_SURROGATE.test(key)) found.surrogate ??= at;
        if (RESERVED_KEYS.has(key)) found.reserved ??= at;
        children.push({ value: child, path: at, depth: depth + 1 });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return found;
}

/** 422 validation_failed when objects and arrays nest deeper than MAX_NESTING. */
export function assertNestingWithinLimit(value: unknown): void {
  const tooDeep = inspect(value).tooDeep;
  if (tooDeep) throw Errors.validation([{ path: tooDeep, message: nestingMessage }]);
}

const nestingMessage = `Objects and arrays must not nest deeper than ${MAX_NESTING} levels`;

/** 422 validation_failed naming each field that holds a NUL character or a reserved key, or nests too deep. */
export function assertSafeInput(value: unknown): void {
  const errors: FieldError[] = [];
  const { nul, surrogate, reserved, tooDeep } = inspect(value);
  if (nul) errors.push({ path: nul, message: 'Must not contain the NUL character (U+0000)' });
  if (surrogate)
    errors.push({ path: surrogate, message: 'Must be valid Unicode text (a lone surrogate is not)' });
  if (reserved) {
    errors.push({ path: reserved, message: 'The keys __proto__, constructor and prototype are not allowed' });
  }
  if (tooDeep) errors.push({ path: tooDeep, message: nestingMessage });
  if (errors.length > 0) throw Errors.validation(errors);
}

/** Text from outside that must be kept whatever it holds (inbound messages): NUL becomes U+FFFD. */
export function withoutNul<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll(NUL, '\uFFFD') as T;
  if (Array.isArray(value)) return value.map(withoutNul) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key.replaceAll(NUL, '\uFFFD'), withoutNul(item)]),
    ) as T;
  }
  return value;
}
