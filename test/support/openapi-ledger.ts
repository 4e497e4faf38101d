// Where the verdicts of the OpenAPI conformance check (test/openapi-conformance.ts) wait to be seen,
// and what they covered. The test API server records one per exchange, keyed by the answer's
// X-Request-Id; the shared client (test/helpers.ts) claims its own at once and throws at the call;
// whatever other traffic failed (a bare fetch, an SDK's client, a stand-in's callback) is thrown by
// the integration setup after each test (test/file-setup.ts). Each test file writes its counts next
// to its log, and the run's teardown adds them up (test/global-setup.ts). Kept free of heavy imports:
// every integration file loads it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const COVERAGE_SUFFIX = '.conformance.json';

/** The check of one exchange (test/openapi-conformance.ts). */
export interface Verdict {
  /** The operationId, or `(no operation)` for a path or method the document does not have. */
  operation: string;
  method: string;
  target: string;
  status: number;
  /** What the request was checked for (only when it was accepted), and the answer. */
  checked: { request: boolean; responseSchema: boolean };
  /** Empty when the exchange matches the document. */
  problems: string[];
  /** The one of `problems` that says a body was sent to an operation that takes none (and was ignored). */
  undeclaredBody?: string;
}

interface Coverage {
  exchanges: number;
  /** Accepted requests whose parameters and body were checked against the document. */
  requests: number;
  /** Answers whose body was validated against a schema (not a bodiless or binary one). */
  responseBodies: number;
  /** Refusals of a path or method the document does not have (404, 405). */
  outsideDocument: number;
  failed: number;
  operations: string[];
  documented: string[];
}

const pending = new Map<string, Verdict[]>();
const operations = new Set<string>();
const counts = { exchanges: 0, requests: 0, responseBodies: 0, outsideDocument: 0, failed: 0 };
let documented: string[] = [];
let anonymous = 0;

/** One line per problem, naming the operation, the request and the status. */
export function describeVerdict(verdict: Verdict): string {
  // A calendar feed's or an invitation's token stays out of the test output.
  const target = verdict.target.replace(/([?&][^=&]*(?:token|secret|key)[^=&]*=)[^&]*/gi, '$1…');
  return [
    `OpenAPI conformance: ${verdict.operation} (${verdict.method} ${target.slice(0, 300)}) → ${verdict.status}:`,
    ...verdict.problems.map((problem) => `  - ${problem}`),
  ].join('\n');
}

export function noteDocumentedOperations(ids: string[]): void {
  documented = ids;
}

export function recordVerdict(requestId: string | null, verdict: Verdict): void {
  counts.exchanges++;
  if (verdict.checked.request) counts.requests++;
  if (verdict.checked.responseSchema) counts.responseBodies++;
  if (verdict.operation === '(no operation)') counts.outsideDocument++;
  else operations.add(verdict.operation);
  const key = requestId ?? `(no request id ${++anonymous})`;
  pending.set(key, [...(pending.get(key) ?? []), verdict]);
}

/** The verdicts recorded for an answer's X-Request-Id (undefined: none, e.g. a server in another process). */
export function claimVerdicts(requestId: string | null): Verdict[] | undefined {
  if (requestId === null) return undefined;
  const verdicts = pending.get(requestId);
  pending.delete(requestId);
  return verdicts;
}

/** The failures nobody claimed since the last call; forgets the rest. */
export function takeUnclaimedFailures(): Verdict[] {
  const failures = [...pending.values()].flat().filter((v) => v.problems.length > 0);
  pending.clear();
  counts.failed += failures.length;
  return failures;
}

/** A claimed verdict that failed its test. */
export function countFailure(): void {
  counts.failed++;
}

export function writeCoverage(dir: string, name: string): void {
  if (counts.exchanges === 0) return;
  const coverage: Coverage = { ...counts, operations: [...operations], documented };
  writeFileSync(path.join(dir, `${name}${COVERAGE_SUFFIX}`), JSON.stringify(coverage));
}

/** The run's summary: exchanges checked, and the operations no test exercised. */
export function summarizeCoverage(dir: string): string | null {
  const files = readdirSync(dir).filter((file) => file.endsWith(COVERAGE_SUFFIX));
  if (files.length === 0) return null;
  const total = { exchanges: 0, requests: 0, responseBodies: 0, outsideDocument: 0, failed: 0 };
  const seen = new Set<string>();
  const all = new Set<string>();
  for (const file of files) {
    const coverage = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Coverage;
    for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += coverage[key];
    for (const id of coverage.operations) seen.add(id);
    for (const id of coverage.documented) all.add(id);
  }
  const missing = [...all].filter((id) => !seen.has(id)).sort();
  return (
    `OpenAPI conformance: ${total.exchanges} exchanges checked against the document in ${files.length} files ` +
    `(${total.responseBodies} answer bodies validated, ${total.requests} accepted requests checked, ` +
    `${total.outsideDocument} refusals of undocumented paths or methods, ${total.failed} failed); ` +
    `${seen.size} of ${all.size} operations exercised` +
    (missing.length > 0 ? `; never called: ${missing.join(', ')}` : '')
  );
}
