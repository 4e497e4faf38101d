// No secret ever reaches a log line. Every integration file logs at `debug` to a file of
// its own (test/support/file-setup.ts; the processes it starts get their own files too), and the teardown of
// test/support/global-setup.ts scans them all with `scanLogDir`. A finding names the file, the line and the
// kind of secret, never the secret itself.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { TEST_ENV } from './env';

export interface Finding {
  file: string;
  line: number;
  kind: string;
}

export interface KnownSecret {
  kind: string;
  value: string;
}

/** What a secret looks like wherever it comes from. */
const PATTERNS: Array<{ kind: string; pattern: RegExp }> = [
  { kind: 'API key (sk_live_…)', pattern: /sk_live_[0-9A-Za-z]{12}_[0-9A-Za-z]{8,}/ },
  { kind: 'webhook secret (whsec_…)', pattern: /whsec_[A-Za-z0-9+/]{16,}/ },
  { kind: 'access token (JWT)', pattern: /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+/ },
  { kind: 'refresh token (rt_…)', pattern: /\brt_[0-9A-Za-z]{20,}/ },
  { kind: 'Authorization value', pattern: /\b(?:Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/i },
  { kind: 'Authorization value', pattern: /"authorization"\s*:\s*"(?!\[redacted\]")/i },
  { kind: 'password', pattern: /"\w*password"\s*:\s*"(?!\[redacted\]")/i },
  { kind: 'channel access token', pattern: /"access_?token"\s*:\s*"(?!\[redacted\]")/i },
  { kind: 'channel access token', pattern: /\bEAA[A-Za-z0-9]{20,}/ },
  { kind: 'Stripe secret key', pattern: /\b[sr]k_(?:test|live)_[0-9A-Za-z]{20,}/ },
];

/** What the log writes in place of a secret (server/log.ts `censor`, the path of a manage link). */
const CENSOR = '[redacted]';

/** Literals shorter than this are too likely to occur by chance to be searched for. */
const MIN_LITERAL = 8;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Scans log lines; `known` are literal secrets the tests used (passwords, tokens, keys). */
export function scanLines(file: string, lines: string[], known: KnownSecret[]): Finding[] {
  const literals = new Map<string, string>();
  for (const { kind, value } of known) if (value.length >= MIN_LITERAL) literals.set(value, kind);
  const literal =
    literals.size > 0 ? new RegExp([...literals.keys()].map(escapeRegExp).join('|'), 'g') : undefined;
  const findings: Finding[] = [];
  lines.forEach((text, index) => {
    const kinds = new Set<string>();
    for (const { kind, pattern } of PATTERNS) if (pattern.test(text)) kinds.add(kind);
    for (const match of literal ? text.matchAll(literal) : []) {
      kinds.add(`${literals.get(match[0])} (a value the tests used)`);
    }
    for (const kind of kinds) findings.push({ file, line: index + 1, kind });
  });
  return findings;
}

export const LOG_SUFFIX = '.log';
const SECRETS_SUFFIX = '.secrets.jsonl';

/** Secrets every test process knows: the settings' keys and the literals the test sources use. */
function staticSecrets(roots: string[]): KnownSecret[] {
  const known: KnownSecret[] = [
    { kind: 'AUTH_SECRET', value: TEST_ENV.AUTH_SECRET },
    { kind: 'SECRETS_KEY', value: TEST_ENV.SECRETS_KEY },
  ];
  // `password: '…'`, `access_token: '…'`, `adminPassword = '…'`… in the test sources.
  const literal = /\b(\w*(?:password|token|secret)\w*)['"]?\s*[:=]\s*['"]([^'"\n]+)['"]/gi;
  for (const root of roots) {
    for (const name of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      if (!name.endsWith('.test.ts') && !(name.endsWith('.ts') && root === roots[0])) continue;
      const source = readFileSync(path.join(root, name), 'utf8');
      for (const [, key, value] of source.matchAll(literal)) {
        // The log's own censor mark (server/log.ts) is what a secret is replaced with, not one.
        if (value.length >= MIN_LITERAL && !value.includes('${') && value !== CENSOR) {
          known.push({ kind: key, value });
        }
      }
    }
  }
  return known;
}

/**
 * Remembers a secret a test created, for the scan (next to the log file of this process). A no-op
 * when logs are not captured.
 */
export function rememberSecret(kind: string, value: string | undefined | null): void {
  const file = process.env.LOG_FILE;
  if (!file || !value) return;
  appendFileSync(file.replace(/\.log$/, SECRETS_SUFFIX), `${JSON.stringify({ kind, value })}\n`);
}

export interface ScanReport {
  files: number;
  lines: number;
  findings: Finding[];
}

/**
 * Scans every log file in `dir` for the patterns, the secrets the tests remembered and the secret
 * literals of the test sources: every .ts file of `sources[0]` (test/), the .test.ts files of the others.
 */
export function scanLogDir(dir: string, sources: string[]): ScanReport {
  const names = readdirSync(dir);
  const known = staticSecrets(sources);
  for (const name of names.filter((n) => n.endsWith(SECRETS_SUFFIX))) {
    for (const line of readFileSync(path.join(dir, name), 'utf8').split('\n')) {
      if (line) known.push(JSON.parse(line) as KnownSecret);
    }
  }
  const report: ScanReport = { files: 0, lines: 0, findings: [] };
  for (const name of names.filter((n) => n.endsWith(LOG_SUFFIX))) {
    const lines = readFileSync(path.join(dir, name), 'utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    report.files++;
    report.lines += lines.length;
    report.findings.push(...scanLines(name, lines, known));
  }
  return report;
}

/** The findings as lines to print: file, line and kind, never the secret. */
export function describeFindings(findings: Finding[]): string {
  return findings.map((f) => `  ${f.file}:${f.line}: ${f.kind}`).join('\n');
}
