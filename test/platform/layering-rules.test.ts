// The import rules in .dependency-cruiser.cjs, tested on throw-away fixture projects cruised with that
// same config file through dependency-cruiser's API (as the CLI does: config, then the project's
// tsconfig, from the project's directory), so a rule that stops matching (a regex typo, type-only or
// dynamic imports no longer seen, `@/` no longer resolved) fails here instead of passing the lint
// silently. Every rule has a fixture that breaks it; the real tree is checked with `npm run lint:deps`
// itself and must break none. No database needed.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cruise as depcruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');
const LINT_DEPS: string = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts[
  'lint:deps'
];
// The files and folders `npm run lint:deps` starts from (before its first option).
const LINT_ROOTS = LINT_DEPS.split(' --')[0].split(' ').slice(1);

// Started at once: a separate process over the whole tree (~5 s), it runs while the fixtures are cruised.
const realLint = promisify(execFile)('npm', ['run', '--silent', 'lint:deps'], {
  cwd: ROOT,
  maxBuffer: 16 * 1024 * 1024,
}).then(
  (r) => ({ code: 0, output: r.stdout }),
  // Exits non-zero on any violation; the output names each one.
  (error: { code?: number; stdout?: string }) => ({ code: error.code ?? 1, output: error.stdout ?? '' }),
);

interface Violation {
  rule: string;
  from: string;
  to: string;
}

const fixtures: string[] = [];
afterAll(async () => {
  await realLint;
  for (const dir of fixtures) rmSync(dir, { recursive: true, force: true });
});

/** Writes a project with the real tsconfig's `@/*` path and `files`, and returns what depcruise finds in it. */
async function cruise(files: Record<string, string>): Promise<Violation[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'layering-'));
  fixtures.push(dir);
  const compilerOptions = {
    module: 'esnext',
    moduleResolution: 'bundler',
    strict: true,
    paths: { '@/*': ['./*'] },
  };
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions }));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  const options = await extractDepcruiseOptions(CONFIG);
  // The config's paths (tsconfig.json, the rules' regexes) are relative to where depcruise runs, as with
  // the CLI; the cases therefore run one at a time.
  const home = process.cwd();
  process.chdir(dir);
  try {
    const tsConfig = extractTSConfig(options.tsConfig?.fileName ?? 'tsconfig.json');
    const roots = LINT_ROOTS.filter((r) => existsSync(r));
    // bustTheCache: a fresh resolver per fixture (it holds the tsconfig's `@/*` path).
    const { output } = await depcruise(
      roots,
      { ...options, outputType: 'json' },
      { bustTheCache: true },
      { tsConfig },
    );
    const result: ICruiseResult = typeof output === 'string' ? JSON.parse(output) : output;
    return (result.summary.violations ?? []).map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
  } finally {
    process.chdir(home);
  }
}

describe('dependency rules (.dependency-cruiser.cjs)', () => {
  it('passes a clean layered project', async () => {
    const violations = await cruise({
      'server/lib/ids.ts': `export const newId = () => 'id';\n`,
      'server/db/client.ts': `import { newId } from '@/server/lib/ids';\nexport const db = newId;\n`,
      'server/http/errors.ts': `export class ApiError extends Error {}\n`,
      'server/domain/context.ts': `export interface Ctx { tenantId: string }\n`,
      'server/domain/bookings/schemas.ts': `export const Booking = {};\n`,
      'server/domain/y.ts': `import { newId } from '@/server/lib/ids';\nexport const y = newId;\n`,
      'server/domain/z.ts': `import { y } from './y';\nimport { recordEvent } from '@/server/webhooks/outbox';\nexport const z = [y, recordEvent];\n`,
      'server/events/payloads.ts': `import { Booking } from '@/server/domain/bookings/schemas';\nimport { Endpoint } from '@/server/webhooks/schemas';\nexport const payloads = [Booking, Endpoint];\n`,
      'server/webhooks/schemas.ts': `export const Endpoint = {};\n`,
      'server/webhooks/hand-over.ts': `export const CHANNEL = 'c';\n`,
      'server/webhooks/outbox.ts': `import { payloads } from '@/server/events/payloads';\nimport { CHANNEL } from './hand-over';\nimport type { Ctx } from '@/server/domain/context';\nexport const recordEvent = (c: Ctx) => [payloads, CHANNEL, c];\n`,
      'server/webhooks/index.ts': `export { recordEvent as createEndpoint } from './outbox';\n`,
      'server/webhooks/attempt/run-attempt.ts': `export const runAttempt = 1;\n`,
      'server/timers/plan.ts': `import { newId } from '@/server/lib/ids';\nexport const planTimers = newId;\n`,
      'server/runtime/claim-loop.ts': `export const loop = 1;\n`,
      'server/runtime/deliveries/worker.ts': `import { loop } from '../claim-loop';\nimport { CHANNEL } from '@/server/webhooks/hand-over';\nimport { runAttempt } from '@/server/webhooks/attempt/run-attempt';\nexport const w = [loop, CHANNEL, runAttempt];\n`,
      'server/runtime/timers/fire.ts': `import { z } from '@/server/domain/z';\nimport { planTimers } from '@/server/timers/plan';\nexport const fire = [z, planTimers];\n`,
      'server/runtime/jobs.ts': `import { z } from '@/server/domain/z';\nexport const jobs = [z];\n`,
      'server/runtime/inngest/functions.ts': `import { jobs } from '../jobs';\nimport { fire } from '../timers/fire';\nexport const fns = [jobs, fire];\n`,
      'server/runtime/lifecycle.ts': `export const start = () => [import('./deliveries/worker'), import('./jobs')];\n`,
      'server/api/x.ts': `import { z } from '@/server/domain/z';\nimport { ApiError } from '@/server/http/errors';\nimport { createEndpoint } from '@/server/webhooks';\nexport const x = [z, ApiError, createEndpoint];\n`,
      'server/trpc/root.ts': `import { y } from '@/server/domain/y';\nexport const appRouter = { y };\nexport type AppRouter = typeof appRouter;\n`,
      'server/trpc/membership.ts': `export async function currentViewer() { return null; }\n`,
      'server/http/lazy.ts': `export const load = () => import('@/server/domain/z');\n`,
      'app/_components/trpc.ts': `import type { AppRouter } from '@/server/trpc/root';\nexport type R = AppRouter;\n`,
      'app/page.tsx': `import { currentViewer } from '@/server/trpc/membership';\nexport default async function Page() { return currentViewer(); }\n`,
      'app/api/x/route.ts': `import { x } from '@/server/api/x';\nexport const GET = () => x;\n`,
      'app/api/inngest/route.ts': `import { fns } from '@/server/runtime/inngest/functions';\nexport const POST = () => fns;\n`,
      // Tests may import anything: a helper, a transport from a lower layer's test, an engine's internals.
      'test/support/helpers.ts': `import { w } from '@/server/runtime/deliveries/worker';\nexport const helper = w;\n`,
      'server/domain/y.test.ts': `import { ApiError } from '@/server/http/errors';\nimport { helper } from '@/test/support/helpers';\nexport const t = [ApiError, helper];\n`,
      'instrumentation.ts': `export async function register() { await import('./server/http/lazy'); await import('./server/runtime/lifecycle'); }\n`,
    });
    expect(violations).toEqual([]);
  });

  it('fails a two-file cycle with no-circular', async () => {
    const violations = await cruise({
      'server/lib/a.ts': `import { b } from './b';\nexport const a = () => b;\n`,
      'server/lib/b.ts': `import { a } from '@/server/lib/a';\nexport const b = () => a;\n`,
    });
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.every((v) => v.rule === 'no-circular')).toBe(true);
  });

  it('fails a cycle closed by a type-only import with no-circular', async () => {
    const violations = await cruise({
      'server/runtime/claim-loop.ts': `export interface Work { name: string }\nexport const load = () => import('./deliveries/worker');\n`,
      'server/runtime/deliveries/worker.ts': `import type { Work } from '@/server/runtime/claim-loop';\nexport const w: Work = { name: 'w' };\n`,
    });
    expect(violations.map((v) => v.rule)).toContain('no-circular');
  });

  it('fails a domain import of server/http with the layer rule', async () => {
    const violations = await cruise({
      'server/http/errors.ts': `export class ApiError extends Error {}\n`,
      'server/domain/x.ts': `import { ApiError } from '@/server/http/errors';\nexport const x = ApiError;\n`,
    });
    expect(violations).toEqual([
      {
        rule: 'lower-layers-never-import-transport',
        from: 'server/domain/x.ts',
        to: 'server/http/errors.ts',
      },
    ]);
  });

  it('fails a type-only import from server/domain into server/api with the layer rule', async ({
    expect,
  }) => {
    const violations = await cruise({
      'server/api/schemas/x.ts': `export interface XInput { name: string }\n`,
      'server/domain/x.ts': `import type { XInput } from '@/server/api/schemas/x';\nexport const x = (i: XInput) => i.name;\n`,
    });
    expect(violations).toEqual([
      {
        rule: 'lower-layers-never-import-transport',
        from: 'server/domain/x.ts',
        to: 'server/api/schemas/x.ts',
      },
    ]);
  });

  it('fails a wrong-way import out of server/webhooks into a transport (the layer rule)', async () => {
    const violations = await cruise({
      'server/http/problem.ts': `export const problem = 1;\n`,
      'server/webhooks/outbox.ts': `import { problem } from '@/server/http/problem';\nexport const recordEvent = problem;\n`,
    });
    expect(violations).toEqual([
      {
        rule: 'lower-layers-never-import-transport',
        from: 'server/webhooks/outbox.ts',
        to: 'server/http/problem.ts',
      },
    ]);
  });

  it('fails a wrong-way import out of server/webhooks into another domain area', async () => {
    const violations = await cruise({
      'server/domain/bookings/get-booking.ts': `export const getBooking = 1;\n`,
      'server/domain/context.ts': `export const ctx = 1;\n`,
      'server/domain/audit/record-audit.ts': `export const audited = 1;\n`,
      'server/webhooks/endpoints/create-endpoint.ts': `import { getBooking } from '@/server/domain/bookings/get-booking';\nimport { ctx } from '@/server/domain/context';\nimport { audited } from '@/server/domain/audit/record-audit';\nexport const createEndpoint = [getBooking, ctx, audited];\n`,
    });
    expect(violations).toEqual([
      {
        rule: 'webhooks-uses-only-context-and-audit-of-domain',
        from: 'server/webhooks/endpoints/create-endpoint.ts',
        to: 'server/domain/bookings/get-booking.ts',
      },
    ]);
  });

  it('fails a wrong-way import into server/webhooks past its public modules', async () => {
    const violations = await cruise({
      'server/webhooks/attempt/run-attempt.ts': `export const runAttempt = 1;\n`,
      'server/webhooks/outbox.ts': `export const recordEvent = 1;\n`,
      'server/domain/bookings/create-booking.ts': `import { recordEvent } from '@/server/webhooks/outbox';\nimport { runAttempt } from '@/server/webhooks/attempt/run-attempt';\nexport const createBooking = [recordEvent, runAttempt];\n`,
    });
    expect(violations).toEqual([
      {
        rule: 'webhooks-only-through-its-public-modules',
        from: 'server/domain/bookings/create-booking.ts',
        to: 'server/webhooks/attempt/run-attempt.ts',
      },
    ]);
  });

  it('fails an import of the runtime from below the edge, and between two kinds of work', async () => {
    const violations = await cruise({
      'server/runtime/jobs.ts': `export const PERIODIC_JOBS = [];\n`,
      'server/runtime/deliveries/claims.ts': `export const CLAIM = 'c';\n`,
      'server/runtime/timers/worker.ts': `import { CLAIM } from '@/server/runtime/deliveries/claims';\nexport const w = CLAIM;\n`,
      'server/domain/x.ts': `import { PERIODIC_JOBS } from '@/server/runtime/jobs';\nexport const x = PERIODIC_JOBS;\n`,
      'server/webhooks/outbox.ts': `export const recordEvent = () => import('@/server/runtime/timers/worker');\n`,
      'instrumentation.ts': `export const register = () => import('./server/runtime/jobs');\n`,
    });
    expect(violations).toEqual(
      expect.arrayContaining([
        { rule: 'runtime-at-the-edge', from: 'server/domain/x.ts', to: 'server/runtime/jobs.ts' },
        {
          rule: 'runtime-at-the-edge',
          from: 'server/webhooks/outbox.ts',
          to: 'server/runtime/timers/worker.ts',
        },
        {
          rule: 'runtime-kinds-never-import-each-other',
          from: 'server/runtime/timers/worker.ts',
          to: 'server/runtime/deliveries/claims.ts',
        },
      ]),
    );
    expect(violations).toHaveLength(3);
  });

  it('fails a runtime import of the webhooks core past the attempt', async () => {
    const violations = await cruise({
      'server/webhooks/attempt/run-attempt.ts': `export const runAttempt = 1;\n`,
      'server/webhooks/notices/disable-failing-endpoint.ts': `export const disable = 1;\n`,
      'server/runtime/deliveries/worker.ts': `import { runAttempt } from '@/server/webhooks/attempt/run-attempt';\nimport { disable } from '@/server/webhooks/notices/disable-failing-endpoint';\nexport const w = [runAttempt, disable];\n`,
    });
    expect(violations).toEqual([
      {
        rule: 'runtime-runs-the-webhook-attempt',
        from: 'server/runtime/deliveries/worker.ts',
        to: 'server/webhooks/notices/disable-failing-endpoint.ts',
      },
    ]);
  });

  it('fails a timer-planning import of the domain (what a timer does lives with the runtime)', async () => {
    const violations = await cruise({
      'server/domain/bookings/expire-hold.ts': `export const expireHold = 1;\n`,
      'server/timers/plan.ts': `import { expireHold } from '@/server/domain/bookings/expire-hold';\nexport const plan = expireHold;\n`,
    });
    expect(violations).toEqual([
      {
        rule: 'timer-planning-imports-only-data',
        from: 'server/timers/plan.ts',
        to: 'server/domain/bookings/expire-hold.ts',
      },
    ]);
  });

  it('fails a provider client import of the domain (inbound traffic is verified below it)', async () => {
    const violations = await cruise({
      'server/domain/conversations/receive-message.ts': `export const receiveMessage = 1;\n`,
      'server/whatsapp/inbound.ts': `import { receiveMessage } from '@/server/domain/conversations/receive-message';\nexport const v = receiveMessage;\n`,
      'server/stripe/client.ts': `import { newId } from '@/server/lib/ids';\nexport const c = newId;\n`,
      'server/lib/ids.ts': `export const newId = 1;\n`,
    });
    expect(violations).toEqual([
      {
        rule: 'providers-below-the-domain',
        from: 'server/whatsapp/inbound.ts',
        to: 'server/domain/conversations/receive-message.ts',
      },
    ]);
  });

  it('fails an events import of an operation (events only read resource schemas)', async () => {
    const violations = await cruise({
      'server/domain/bookings/schemas.ts': `export const Booking = 1;\n`,
      'server/domain/bookings/get-booking.ts': `export const getBooking = 1;\n`,
      'server/events/payloads.ts': `import { Booking } from '@/server/domain/bookings/schemas';\nimport { getBooking } from '@/server/domain/bookings/get-booking';\nexport const p = [Booking, getBooking];\n`,
    });
    expect(violations).toEqual([
      {
        rule: 'events-read-only-resource-schemas',
        from: 'server/events/payloads.ts',
        to: 'server/domain/bookings/get-booking.ts',
      },
    ]);
  });

  it('fails an import upward from the data and support layer', async () => {
    const violations = await cruise({
      'server/domain/context.ts': `export const ctx = 1;\n`,
      'server/db/x.ts': `import { ctx } from '@/server/domain/context';\nexport const x = ctx;\n`,
    });
    expect(violations).toEqual([
      { rule: 'base-imports-nothing-above', from: 'server/db/x.ts', to: 'server/domain/context.ts' },
    ]);
  });

  it('fails a UI import of server/domain, passes a UI type import of the tRPC router', async () => {
    const violations = await cruise({
      'server/domain/y.ts': `export const y = 1;\n`,
      'server/trpc/root.ts': `import { y } from '@/server/domain/y';\nexport const appRouter = { y };\nexport type AppRouter = typeof appRouter;\n`,
      'app/_components/x.tsx': `import { y } from '@/server/domain/y';\nexport function X() { return y; }\n`,
      'app/_components/trpc.tsx': `import type { AppRouter } from '@/server/trpc/root';\nexport type R = AppRouter;\n`,
    });
    expect(violations).toEqual([
      { rule: 'ui-only-trpc-types', from: 'app/_components/x.tsx', to: 'server/domain/y.ts' },
    ]);
  });

  it('passes a UI import of the client-safe constants, fails a client-safe import of anything else', async () => {
    const violations = await cruise({
      'server/lib/ids.ts': `export const newId = () => 'id';\n`,
      'server/client-safe/statuses.ts': `export const STATUSES = ['a'] as const;\n`,
      'server/client-safe/limits.ts': `import { STATUSES } from './statuses';\nexport const N = STATUSES.length;\n`,
      'server/client-safe/bad.ts': `import { newId } from '@/server/lib/ids';\nimport { readFileSync } from 'node:fs';\nexport const b = [newId, readFileSync];\n`,
      'app/_components/x.tsx': `import { N } from '@/server/client-safe/limits';\nexport function X() { return N; }\n`,
    });
    expect(violations.map((v) => [v.rule, v.from, v.to])).toEqual([
      ['client-safe-imports-nothing', 'server/client-safe/bad.ts', 'fs'],
      ['client-safe-imports-nothing', 'server/client-safe/bad.ts', 'server/lib/ids.ts'],
    ]);
  });

  it("fails a domain import of the assistant's tools (server/mcp) with the layer rule", async () => {
    const violations = await cruise({
      'server/mcp/tools.ts': `export const TOOLS = [];\n`,
      'server/domain/x.ts': `import { TOOLS } from '@/server/mcp/tools';\nexport const x = TOOLS;\n`,
    });
    expect(violations).toEqual([
      { rule: 'lower-layers-never-import-transport', from: 'server/domain/x.ts', to: 'server/mcp/tools.ts' },
    ]);
  });

  it('fails a dynamic import of server/api from server/auth with the layer rule', async () => {
    const violations = await cruise({
      'server/api/x.ts': `export const x = 1;\n`,
      'server/auth/lazy.ts': `export const load = () => import('@/server/api/x');\n`,
    });
    expect(violations).toEqual([
      { rule: 'lower-layers-never-import-transport', from: 'server/auth/lazy.ts', to: 'server/api/x.ts' },
    ]);
  });

  it('fails product imports of test code and imports that do not resolve', async () => {
    const violations = await cruise({
      'test/support/helpers.ts': `export const helper = 1;\n`,
      'server/lib/x.test.ts': `export const t = 1;\n`,
      'server/lib/a.ts': `import { helper } from '@/test/support/helpers';\nimport { t } from './x.test';\nexport const a = [helper, t];\n`,
      'server/lib/b.ts': `import { gone } from '@/server/lib/moved';\nimport { c } from './c';\nexport const b = [gone, c];\n`,
    });
    expect(violations).toEqual(
      expect.arrayContaining([
        { rule: 'not-to-test-from-product', from: 'server/lib/a.ts', to: 'test/support/helpers.ts' },
        { rule: 'not-to-test-from-product', from: 'server/lib/a.ts', to: 'server/lib/x.test.ts' },
        { rule: 'no-unresolvable', from: 'server/lib/b.ts', to: '@/server/lib/moved' },
        { rule: 'no-unresolvable', from: 'server/lib/b.ts', to: './c' },
      ]),
    );
    expect(violations).toHaveLength(4);
  });

  it('every rule of the config has a fixture above that breaks it', () => {
    const config = createRequire(import.meta.url)(CONFIG) as { forbidden: Array<{ name: string }> };
    const source = readFileSync(fileURLToPath(import.meta.url), 'utf8');
    for (const { name } of config.forbidden) expect(source).toContain(`'${name}'`);
  });

  it('finds no violation at all in the real project (npm run lint:deps)', async () => {
    const { code, output } = await realLint;
    expect(output).toMatch(/no dependency violations found \(\d+ modules, \d+ dependencies cruised\)/);
    expect(code).toBe(0);
  });
});
