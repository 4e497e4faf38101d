// Input every transport refuses at its door (CONTRACT §10), before any schema sees it:
// - the NUL character (U+0000), which PostgreSQL text cannot hold (a query with it fails: a 500);
// - the object keys __proto__, constructor and prototype, which parsers drop or trip over
//   (zod strips __proto__ silently, superjson refuses to serialise all three).
import { Errors, type FieldError } from './errors';

const NUL = '\u0000';
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Where the first NUL sits in a JSON-like value (a string, or an object key or value), else null. */
export function findNul(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? path || '(input)' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (key.includes(NUL)) return at;
      const found = findNul(item, at);
      if (found) return found;
    }
  }
  return null;
}

/** Where the first reserved object key sits in a JSON-like value, else null. */
export function findReservedKey(value: unknown, path = ''): string | null {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findReservedKey(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (RESERVED_KEYS.has(key)) return at;
      const found = findReservedKey(item, at);
      if (found) return found;
    }
  }
  return null;
}

/** 422 validation_failed naming each field that holds a NUL character or a reserved key. */
export function assertSafeInput(value: unknown): void {
  const errors: FieldError[] = [];
  const nul = findNul(value);
  if (nul) errors.push({ path: nul, message: 'Must not contain the NUL character (U+0000)' });
  const reserved = findReservedKey(value);
  if (reserved) {
    errors.push({ path: reserved, message: 'The keys __proto__, constructor and prototype are not allowed' });
  }
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
