// fast-check arbitraries generated from the zod schemas a route declares (through their JSON Schema,
// `z.toJSONSchema`), and the mutations that turn a valid-ish value into a hostile one: wrong types,
// missing and extra fields, huge strings and arrays, unicode edge cases, deep nesting and the keys
// __proto__ / constructor / prototype. Used by test/api/fuzzed-requests-keep-contract.integration.test.ts.
import fc from 'fast-check';
import { z } from 'zod';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
}

/** Strings that have broken services before: NUL, lone surrogates, BOM, bidi overrides, … */
export const NASTY_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83dy',
  '\ufeff',
  '\u202e',
  '\u200b\u200d',
  '\uffff',
  '\ufffd',
  '🙂👩‍👩‍👧',
  'e\u0301\u0301\u0301',
  '\\u0000',
  '%00',
  '../../etc/passwd',
  "'; drop table bookings; --",
  '{{7*7}}#{7*7}<%= 7*7 %>',
  '<script>alert(1)</script>',
  ' ',
  '',
  '\t\n\r',
  'NaN',
  '-0',
  '1e309',
];

const RESERVED_KEYS = ['__proto__', 'constructor', 'prototype'];

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', '\u0000', 'é', '🙂', '\ud800'), fc.integer({ min: 1_000, max: 100_000 }))
      .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length))),
  },
);

/** Any JSON value, small, plus the nasty strings. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -1e308, 1e21, 0.1),
  nastyString,
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

/**
 * Fields whose valid values JSON Schema cannot describe (zod refinements): known-good values, so the
 * valid-ish bodies reach the domain code instead of stopping at validation.
 */
const FIELD_HINTS: Record<string, fc.Arbitrary<unknown>> = {
  currency: fc.constantFrom('EUR', 'USD', 'JPY', 'GBP', 'EUD'),
  url: fc.constantFrom('http://127.0.0.1:9/hook', 'https://example.com/hooks', 'ftp://example.com', 'nope'),
  events: fc.subarray(['*', 'booking.*', 'payment.created', 'conversation.*', 'webhook.test'], {
    minLength: 1,
  }),
  email: fc.constantFrom('ada@example.test', 'nobody@example.test', 'x'),
  password: fc.constantFrom('correct horse battery staple', 'wrong'),
  customer_email: fc.constantFrom('ada@example.test', 'ADA@example.test'),
};

/** A value the schema (probably) accepts: refinements beyond JSON Schema are left to chance. */
/** Arbitraries for fields by name, overriding what their schema says. */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

export function arbitraryOf(
  schema: JsonSchema,
  hints: Hints = {},
  root: JsonSchema = schema,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (depth > 8) return anyJson;
  if (schema.$ref) {
    const name = schema.$ref.replace(/^#\/\$defs\//, '');
    const target = root.$defs?.[name];
    return target ? arbitraryOf(target, hints, root, depth + 1) : anyJson;
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => arbitraryOf(s, hints, root, depth + 1)));
  if (schema.allOf?.length) return arbitraryOf(schema.allOf[0], hints, root, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (type.length > 1) {
    return fc.oneof(...type.map((t) => arbitraryOf({ ...schema, type: t }, hints, root, depth + 1)));
  }
  switch (type[0]) {
    case 'object':
      return objectOf(schema, hints, root, depth);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 4, 4));
      return fc.array(schema.items ? arbitraryOf(schema.items, hints, root, depth + 1) : anyJson, {
        minLength,
        maxLength,
      });
    }
    case 'string':
      return stringOf(schema);
    case 'integer':
    case 'number': {
      const min =
        schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1e6);
      const max =
        schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1e6);
      const lo = Math.max(min, -Number.MAX_SAFE_INTEGER);
      const hi = Math.min(max, Number.MAX_SAFE_INTEGER);
      return type[0] === 'integer'
        ? fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) })
        : fc.double({ min: lo, max: hi, noNaN: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return anyJson;
  }
}

function objectOf(schema: JsonSchema, hints: Hints, root: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const keys = Object.keys(properties);
  if (keys.length === 0) {
    // A record (free-form metadata): a few keys of any JSON value.
    const value =
      typeof schema.additionalProperties === 'object'
        ? arbitraryOf(schema.additionalProperties, hints, root, depth + 1)
        : anyJson;
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), value, { maxKeys: 4 });
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const key of keys)
    model[key] = hints[key] ?? FIELD_HINTS[key] ?? arbitraryOf(properties[key], hints, root, depth + 1);
  return fc.record(model, { requiredKeys: schema.required ?? [] });
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 40));
  if (schema.format === 'date-time') {
    return fc
      .date({
        min: new Date('2024-01-01T00:00:00Z'),
        max: new Date('2032-01-01T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString());
  }
  if (schema.format === 'email')
    return fc.emailAddress().filter((e) => e.length <= (schema.maxLength ?? 320));
  if (schema.format === 'uri') {
    return fc.constantFrom('http://127.0.0.1:9/hook', 'https://example.com/hooks', 'ftp://x', 'not a url');
  }
  if (schema.pattern) {
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? 100));
  }
  return fc.string({ minLength, maxLength, unit: 'grapheme-ascii' });
}

// ---- mutations ------------------------------------------------------------------------------

type Json = unknown;
type Path = (string | number)[];

/** The paths of every value inside `value` (the root is []). */
function pathsOf(value: Json, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) pathsOf(value[i], [...at, i], out);
  } else if (isObject(value)) {
    for (const key of Object.keys(value)) pathsOf(value[key], [...at, key], out);
  }
  return out;
}

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Deep);
}

/** `depth` levels of arrays or objects around `leaf`, written out by `toJsonText` without recursion. */
export class Deep {
  constructor(
    readonly depth: number,
    readonly nest: 'array' | 'object',
    readonly leaf: Json,
  ) {}
}

/** JSON text of a generated value (undefined: no body); own `__proto__` keys included. */
export function toJsonText(value: Json): string | undefined {
  if (value === undefined) return undefined;
  if (value instanceof Deep) {
    const leaf = toJsonText(value.leaf) ?? 'null';
    return value.nest === 'array'
      ? `${'['.repeat(value.depth)}${leaf}${']'.repeat(value.depth)}`
      : `${'{"a":'.repeat(value.depth)}${leaf}${'}'.repeat(value.depth)}`;
  }
  if (Array.isArray(value)) return `[${value.map((item) => toJsonText(item) ?? 'null').join(',')}]`;
  if (isObject(value)) {
    const members = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${toJsonText(value[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Sets an own, enumerable property, even for `__proto__` (plain assignment would set the prototype). */
function defineKey(target: Record<string, Json>, key: string, value: Json) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function clone(value: Json): Json {
  if (Array.isArray(value)) return value.map(clone);
  if (isObject(value)) {
    const out: Record<string, Json> = {};
    for (const key of Object.keys(value)) defineKey(out, key, clone(value[key]));
    return out;
  }
  return value;
}

function replaceAt(value: Json, path: Path, make: (old: Json) => Json): Json {
  if (path.length === 0) return make(value);
  const copy = clone(value) as Record<string | number, Json>;
  let parent = copy;
  for (const segment of path.slice(0, -1)) parent = parent[segment] as Record<string | number, Json>;
  const last = path[path.length - 1];
  if (Array.isArray(parent)) parent[last as number] = make(parent[last as number]);
  else defineKey(parent as Record<string, Json>, String(last), make(parent[last]));
  return copy;
}

type Mutation =
  | { kind: 'wrongType'; pick: number; replacement: Json }
  | { kind: 'drop'; pick: number }
  | { kind: 'extraKey'; pick: number; key: string; value: Json }
  | { kind: 'nasty'; pick: number; text: string }
  | { kind: 'hugeArray'; pick: number; length: number }
  | { kind: 'deep'; pick: number; depth: number; nest: 'array' | 'object' };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('wrongType' as const), pick: fc.nat(), replacement: anyJson }),
  fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('extraKey' as const),
    pick: fc.nat(),
    key: fc.oneof(fc.constantFrom(...RESERVED_KEYS), nastyString, fc.string({ maxLength: 10 })),
    value: anyJson,
  }),
  fc.record({ kind: fc.constant('nasty' as const), pick: fc.nat(), text: nastyString }),
  fc.record({
    kind: fc.constant('hugeArray' as const),
    pick: fc.nat(),
    length: fc.integer({ min: 100, max: 20_000 }),
  }),
  fc.record({
    kind: fc.constant('deep' as const),
    pick: fc.nat(),
    depth: fc.oneof(fc.integer({ min: 10, max: 200 }), fc.integer({ min: 1_000, max: 150_000 })),
    nest: fc.constantFrom('array' as const, 'object' as const),
  }),
);

function applyMutation(value: Json, mutation: Mutation): Json {
  const paths = pathsOf(value);
  const path = paths[mutation.pick % paths.length];
  switch (mutation.kind) {
    case 'wrongType':
      return replaceAt(value, path, () => mutation.replacement);
    case 'drop': {
      if (path.length === 0) return undefined;
      const parentPath = path.slice(0, -1);
      return replaceAt(value, parentPath, (parent) => {
        if (Array.isArray(parent)) return parent.filter((_, i) => i !== path[path.length - 1]);
        const copy = clone(parent) as Record<string, Json>;
        delete copy[String(path[path.length - 1])];
        return copy;
      });
    }
    case 'extraKey': {
      const objects = paths.filter((p) => isObject(getAt(value, p)));
      if (objects.length === 0) return value;
      const target = objects[mutation.pick % objects.length];
      return replaceAt(value, target, (old) => {
        const copy = clone(old) as Record<string, Json>;
        defineKey(copy, mutation.key, mutation.value);
        return copy;
      });
    }
    case 'nasty':
      return replaceAt(value, path, () => mutation.text);
    case 'hugeArray':
      return replaceAt(value, path, (old) => {
        const item = small(old);
        return Array.from({ length: mutation.length }, () => item ?? 'x');
      });
    case 'deep':
      return replaceAt(value, path, (old) => new Deep(mutation.depth, mutation.nest, small(old)));
  }
}

/** A leaf small enough to repeat or nest (no huge strings, no nested Deep). */
function small(value: Json): Json {
  if (typeof value === 'string') return value.slice(0, 8);
  if (value instanceof Deep || (typeof value === 'object' && value !== null)) return null;
  return value ?? null;
}

function getAt(value: Json, path: Path): Json {
  let current = value;
  for (const segment of path) current = (current as Record<string | number, Json>)[segment];
  return current;
}

/** A schema-shaped value, left valid about a third of the time, else mutated one to three times. */
export function hostileValueOf(schema: JsonSchema, hints: Hints = {}): fc.Arbitrary<Json> {
  return fc
    .tuple(arbitraryOf(schema, hints), fc.array(mutationArb, { minLength: 0, maxLength: 3 }), fc.nat(2))
    .map(([value, mutations, keep]) => (keep === 0 ? value : mutations.reduce(applyMutation, value)));
}
