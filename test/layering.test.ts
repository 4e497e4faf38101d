// The import rules in .dependency-cruiser.cjs, tested on throw-away fixture projects cruised with that
// same config file through dependency-cruiser's API (as the CLI does: config, then the project's
// tsconfig, from the project's directory), so a rule that stops matching (a regex typo, type-only or
// dynamic imports no longer seen, `@/` no longer resolved) fails here instead of passing the lint
// silently. The real tree is checked with `npm run lint:deps` itself. No database needed.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cruise as depcruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
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
  (r) => r.stdout,
  // Exits non-zero on any violation; the output is what the test reads.
  (error: { stdout?: string }) => error.stdout ?? '',
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
      'server/http/errors.ts': `export class ApiError extends Error {}\n`,
      'server/domain/y.ts': `import { newId } from '@/server/lib/ids';\nexport const y = newId;\n`,
      'server/domain/z.ts': `import { y } from './y';\nexport const z = y;\n`,
      'server/api/x.ts': `import { z } from '@/server/domain/z';\nimport { ApiError } from '@/server/http/errors';\nexport const x = [z, ApiError];\n`,
      'server/trpc/root.ts': `import { y } from '@/server/domain/y';\nexport const appRouter = { y };\nexport type AppRouter = typeof appRouter;\n`,
      'server/trpc/membership.ts': `export async function currentViewer() { return null; }\n`,
      'server/http/lazy.ts': `export const load = () => import('@/server/domain/z');\n`,
      'app/_components/trpc.ts': `import type { AppRouter } from '@/server/trpc/root';\nexport type R = AppRouter;\n`,
      'app/page.tsx': `import { currentViewer } from '@/server/trpc/membership';\nexport default async function Page() { return currentViewer(); }\n`,
      'app/api/x/route.ts': `import { x } from '@/server/api/x';\nexport const GET = () => x;\n`,
      // Tests may import anything: a helper, and a transport from a lower layer's test.
      'test/helpers.ts': `export const helper = 1;\n`,
      'server/domain/y.test.ts': `import { ApiError } from '@/server/http/errors';\nimport { helper } from '@/test/helpers';\nexport const t = [ApiError, helper];\n`,
      'instrumentation.ts': `export async function register() { await import('./server/http/lazy'); }\n`,
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
      'server/delivery/engine.ts': `export interface Engine { name: string }\nexport const load = () => import('./worker');\n`,
      'server/delivery/worker.ts': `import type { Engine } from '@/server/delivery/engine';\nexport const w: Engine = { name: 'w' };\n`,
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
      'test/helpers.ts': `export const helper = 1;\n`,
      'server/lib/x.test.ts': `export const t = 1;\n`,
      'server/lib/a.ts': `import { helper } from '@/test/helpers';\nimport { t } from './x.test';\nexport const a = [helper, t];\n`,
      'server/lib/b.ts': `import { gone } from '@/server/lib/moved';\nimport { c } from './c';\nexport const b = [gone, c];\n`,
    });
    expect(violations).toEqual(
      expect.arrayContaining([
        { rule: 'not-to-test-from-product', from: 'server/lib/a.ts', to: 'test/helpers.ts' },
        { rule: 'not-to-test-from-product', from: 'server/lib/a.ts', to: 'server/lib/x.test.ts' },
        { rule: 'no-unresolvable', from: 'server/lib/b.ts', to: '@/server/lib/moved' },
        { rule: 'no-unresolvable', from: 'server/lib/b.ts', to: './c' },
      ]),
    );
    expect(violations).toHaveLength(4);
  });

  it('finds no cycle in the real project (npm run lint:deps)', async () => {
    // Only cycles: upward imports from server/domain etc. into server/http are being removed in a
    // separate refactor, so the step may still fail (non-zero exit) on the layer rule meanwhile.
    const output = await realLint;
    expect(output).toMatch(/\d+ modules, \d+ dependencies cruised/);
    expect(output).not.toContain('no-circular');
  });
});
