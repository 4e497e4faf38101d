// A validator of HTTP exchanges against the OpenAPI 3.1 document the API serves (GET
// /api/v1/openapi.json, built here by the same generator), as an outside tool such as Prism checks
// traffic: the operation exists (path and method), the status is declared, the Content-Type is one the
// document declares for that status, and the body validates against that media type's schema (JSON
// Schema 2020-12, ajv). An answer may carry only the fields the document names (objects are closed
// for the check), so a handler cannot answer more than integrators can see.
//
// A request is checked when the server accepted it (2xx): a server that takes what the document
// calls invalid has drifted from it as surely as one that answers what it does not declare. So a body
// sent where the document says none, no body where it says required, a body or query parameter that
// fails its schema, or a missing required header fails. Refused requests (4xx) are the tests' own
// hostile input: only their answers are checked.
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '@/server/api/openapi';
import { routes } from '@/server/api/routes';
import { noteDocumentedOperations, type Verdict } from './openapi-ledger';

/** One request and its answer, as they crossed the wire. */
export interface Exchange {
  method: string;
  /** The request target: path and query, e.g. `/api/v1/bookings?limit=5`. */
  target: string;
  requestHeaders: Headers;
  /** The request body as received, or undefined when none was sent (or it was not read to the end). */
  requestBody: string | undefined;
  status: number;
  responseHeaders: Headers;
  responseBody: Uint8Array;
}

type Schema = Record<string, unknown>;
interface MediaObject {
  schema?: Schema;
}
interface ResponseObject {
  content?: Record<string, MediaObject>;
}
interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}
interface OperationObject {
  operationId: string;
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content: Record<string, MediaObject> };
  responses: Record<string, ResponseObject>;
}

const BASE = 'urn:switchboard:openapi';

interface PathEntry {
  template: string;
  pattern: RegExp;
  params: string[];
  operations: Record<string, OperationObject>;
}

/** The compiled document: operations by path template, and validators made on first use. */
class DocumentValidator {
  private readonly paths: {
    template: string;
    pattern: RegExp;
    params: string[];
    operations: Record<string, OperationObject>;
  }[];
  // The document's schemas are linted (npm run lint:openapi); checking them against the meta-schema
  // here again would cost a quarter of a second per test file.
  private readonly answers = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly inputs = new Ajv2020({
    strict: false,
    allErrors: true,
    validateSchema: false,
    coerceTypes: true,
  });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: {
    paths: Record<string, Record<string, OperationObject>>;
    components?: { schemas?: Record<string, Schema> };
  }) {
    addFormats(this.answers);
    addFormats(this.inputs);
    const schemas = document.components?.schemas ?? {};
    // Components become $defs of one schema resource; answers see them closed, requests as declared.
    this.answers.addSchema({ $id: BASE, $defs: mapValues(schemas, (s) => closeObjects(rebase(s))) });
    this.inputs.addSchema({ $id: BASE, $defs: mapValues(schemas, (s) => rebase(s)) });
    // Literal segments win over parameters (`/channels/whatsapp/webhook` before `/channels/{id}`).
    this.paths = Object.entries(document.paths)
      .map(([template, operations]) => {
        const params: string[] = [];
        const source = template
          .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
          .replace(/\{(\w+)\}/g, (_: string, name: string) => {
            params.push(name);
            return '([^/]+)';
          });
        return { template, pattern: new RegExp(`^${source}$`), params, operations };
      })
      .sort((a, b) => a.params.length - b.params.length);
  }

  check(exchange: Exchange): Verdict {
    const url = new URL(exchange.target, 'http://api.test');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = exchange.method.toLowerCase();
    const verdict: Verdict = {
      operation: '(no operation)',
      method: exchange.method.toUpperCase(),
      target: exchange.target,
      status: exchange.status,
      checked: { request: false, responseSchema: false },
      problems: [],
    };
    const matches = this.paths
      .map((p) => ({ p, match: p.pattern.exec(path) }))
      .filter((m): m is { p: PathEntry; match: RegExpExecArray } => m.match !== null);
    const hit = matches.find((m) => m.p.operations[method]);
    if (!hit) {
      // Outside the document: only the pipeline's generic refusals of a path it does not have (404)
      // or of a method a path does not take (405), as problem documents.
      const expected = matches.length === 0 ? 404 : 405;
      if (exchange.status !== expected) {
        verdict.problems.push(
          matches.length === 0
            ? `no operation has this path, yet it answered ${exchange.status} (only 404 is expected)`
            : `no ${verdict.method} operation on ${matches[0].p.template}, yet it answered ${exchange.status} (only 405 is expected)`,
        );
      }
      this.checkMedia(
        verdict,
        'answer',
        exchange.responseHeaders.get('content-type'),
        exchange.responseBody,
        {
          'application/problem+json': { schema: { $ref: `${BASE}#/$defs/Problem` } },
        },
        '(no operation)',
      );
      return verdict;
    }
    const operation = hit.p.operations[method];
    verdict.operation = operation.operationId;
    const key = `${hit.p.template} ${method}`;

    const declared =
      operation.responses[String(exchange.status)] ?? operation.responses[`${String(exchange.status)[0]}XX`];
    if (!declared) {
      verdict.problems.push(
        `status ${exchange.status} is not declared (the document lists ${Object.keys(operation.responses).join(', ')})`,
      );
    } else if (!declared.content) {
      if (exchange.responseBody.length > 0) {
        verdict.problems.push(`status ${exchange.status} is declared without a body, but the answer has one`);
      }
    } else {
      verdict.checked.responseSchema = this.checkMedia(
        verdict,
        'answer',
        exchange.responseHeaders.get('content-type'),
        exchange.responseBody,
        declared.content,
        `${key} ${exchange.status}`,
      );
    }

    if (exchange.status >= 200 && exchange.status < 300) {
      verdict.checked.request = true;
      const values = new Map(hit.p.params.map((name, i) => [name, safeDecode(hit.match[i + 1])]));
      this.checkParameters(verdict, operation, exchange, url.searchParams, values);
      this.checkRequestBody(verdict, operation, exchange, key);
    }
    return verdict;
  }

  private checkParameters(
    verdict: Verdict,
    operation: OperationObject,
    exchange: Exchange,
    query: URLSearchParams,
    pathValues: Map<string, string>,
  ): void {
    for (const parameter of operation.parameters ?? []) {
      const where = `${parameter.in} parameter ${parameter.name}`;
      let value: string | null | undefined;
      // A query parameter given twice counts by its last value, as the server reads it.
      if (parameter.in === 'query') value = query.getAll(parameter.name).at(-1);
      else if (parameter.in === 'header') value = exchange.requestHeaders.get(parameter.name);
      else if (parameter.in === 'path') value = pathValues.get(parameter.name);
      else continue;
      if (value === null || value === undefined) {
        if (parameter.required) verdict.problems.push(`accepted without the required ${where}`);
        continue;
      }
      if (!parameter.schema) continue;
      // Parameters are strings on the wire: coerced to the schema's type, as a server reads them.
      const id = `${operation.operationId} ${where}`;
      let validate = this.compiled.get(id);
      if (!validate) {
        validate = this.inputs.compile({ type: 'object', properties: { value: rebase(parameter.schema) } });
        this.compiled.set(id, validate);
      }
      if (!validate({ value }))
        verdict.problems.push(`accepted an invalid ${where}: ${describeErrors(validate.errors)}`);
    }
  }

  private checkRequestBody(
    verdict: Verdict,
    operation: OperationObject,
    exchange: Exchange,
    key: string,
  ): void {
    const length = Number(exchange.requestHeaders.get('content-length') ?? '0');
    const sent =
      (exchange.requestBody !== undefined && exchange.requestBody.length > 0) ||
      length > 0 ||
      exchange.requestHeaders.has('transfer-encoding');
    const spec = operation.requestBody;
    if (!spec) {
      if (sent) {
        verdict.undeclaredBody = 'accepted a request body, but the document declares none for this operation';
        verdict.problems.push(verdict.undeclaredBody);
      }
      return;
    }
    if (!sent) {
      if (spec.required)
        verdict.problems.push('accepted a request without a body, but the document marks the body required');
      return;
    }
    if (exchange.requestBody === undefined) return; // sent but not read to the end: nothing to validate
    this.checkMedia(
      verdict,
      'request',
      exchange.requestHeaders.get('content-type'),
      new TextEncoder().encode(exchange.requestBody),
      spec.content,
      `${key} request`,
    );
  }

  /**
   * The media type must be one `content` declares and the body must fit its schema. Answers whether a
   * schema was applied (false for a binary body, which has none).
   */
  private checkMedia(
    verdict: Verdict,
    what: 'answer' | 'request',
    contentType: string | null,
    bytes: Uint8Array,
    content: Record<string, MediaObject>,
    cacheKey: string,
  ): boolean {
    const declared = Object.keys(content);
    const mediaType = declared.find((candidate) => mediaTypeMatches(contentType, candidate));
    if (!mediaType) {
      verdict.problems.push(
        `the ${what}'s Content-Type ${contentType ?? '(none)'} is not one the document declares (${declared.join(', ')})`,
      );
      return false;
    }
    const schema = content[mediaType].schema;
    if (!schema || isBinary(schema)) return false;
    const text = new TextDecoder().decode(bytes);
    let value: unknown = text;
    if (isJson(contentType)) {
      try {
        value = JSON.parse(text);
      } catch {
        verdict.problems.push(`the ${what} is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
        return false;
      }
    }
    const ajv = what === 'answer' ? this.answers : this.inputs;
    const id = `${what} ${cacheKey} ${mediaType}`;
    let validate = this.compiled.get(id);
    if (!validate) {
      validate = ajv.compile(what === 'answer' ? closeObjects(rebase(schema)) : rebase(schema));
      this.compiled.set(id, validate);
    }
    if (!validate(value)) {
      verdict.problems.push(
        `the ${what} body does not match the ${mediaType} schema: ${describeErrors(validate.errors)}`,
      );
    }
    return true;
  }
}

let shared: DocumentValidator | undefined;

/** Checks one exchange against the generated document (built once per process). */
export function checkExchange(exchange: Exchange): Verdict {
  return documentValidator().check(exchange);
}

/** Builds the document and its validator now (a server calls it before it listens, so no answer waits for it). */
export function prepareConformanceCheck(): void {
  documentValidator();
}

function documentValidator(): DocumentValidator {
  if (!shared) {
    shared = new DocumentValidator(buildOpenApiDocument(routes) as never);
    noteDocumentedOperations(routes.map((route) => route.operationId));
  }
  return shared;
}

function mediaTypeMatches(actual: string | null, declared: string): boolean {
  if (declared === '*/*') return true;
  if (!actual) return false;
  const [actualEssence, ...actualParams] = actual.split(';').map((s) => s.trim().toLowerCase());
  const [declaredEssence, ...declaredParams] = declared.split(';').map((s) => s.trim().toLowerCase());
  if (declaredEssence.endsWith('/*')) {
    if (!actualEssence.startsWith(declaredEssence.slice(0, -1))) return false;
  } else if (actualEssence !== declaredEssence) return false;
  // Every parameter the document names (charset=utf-8) must be sent as declared.
  return declaredParams.every((param) => actualParams.includes(param.replace(/\s*=\s*/, '=')));
}

function isJson(contentType: string | null): boolean {
  const essence = contentType?.split(';')[0].trim().toLowerCase() ?? '';
  return essence === 'application/json' || essence.endsWith('+json');
}

function isBinary(schema: Schema): boolean {
  return schema.type === 'string' && schema.format === 'binary';
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** `#/components/schemas/X` → the $defs of the shared schema resource. */
function rebase<T>(node: T): T {
  if (Array.isArray(node)) return node.map(rebase) as T;
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) =>
      key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')
        ? [key, `${BASE}#/$defs/${value.slice('#/components/schemas/'.length)}`]
        : [key, rebase(value)],
    ),
  ) as T;
}

/**
 * Objects that name their properties and say nothing of others are closed (`unevaluatedProperties:
 * false`, which sees through anyOf and $ref): an answer must not carry what the document does not say.
 */
function closeObjects<T>(node: T): T {
  if (Array.isArray(node)) return node.map(closeObjects) as T;
  if (!node || typeof node !== 'object') return node;
  const copy = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, closeObjects(value)]),
  ) as Schema;
  if (
    copy.properties &&
    !('additionalProperties' in copy) &&
    !('unevaluatedProperties' in copy) &&
    !('patternProperties' in copy)
  ) {
    copy.unevaluatedProperties = false;
  }
  return copy as T;
}

function mapValues<T, U>(record: Record<string, T>, fn: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fn(value)]));
}

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 8)
    .map((e) => {
      const extra =
        e.keyword === 'unevaluatedProperties' || e.keyword === 'additionalProperties'
          ? ` (${String((e.params as { unevaluatedProperty?: string; additionalProperty?: string }).unevaluatedProperty ?? (e.params as { additionalProperty?: string }).additionalProperty)})`
          : '';
      return `${e.instancePath || '(root)'} ${e.message}${extra}`;
    })
    .join('; ');
}
