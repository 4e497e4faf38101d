// The import rules `npm run lint` enforces (dependency-cruiser 17). Paths are relative to the directory
// depcruise runs in (the project root). Type-only imports (`import type`, `export type … from`) and
// dynamic `import()` count like any other import: a cycle or a layer breach through them is still one.
// test/layering.test.ts runs this same file on small fixture projects, so change both together.

/** Test code: exempt from the layer rules (it may import anything), never imported by product code. */
const TEST = '\\.(test|spec)\\.tsx?$|^(test|e2e|bench)/';
/** Layers below the transports: they must work without knowing which transport called them. */
const LOWER = '^server/(domain|events|auth|db|webhooks|security|lib|config)/';
/** The transports: REST handlers and schemas, tRPC, the assistant's tools (MCP), and the Next.js app. */
const TRANSPORT = '^(server/(http|api|trpc|mcp)|app)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'This import closes a cycle. Move what both files need into a module that imports neither.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lower-layers-never-import-transport',
      comment:
        'server/(domain|events|auth|db|webhooks|security|lib|config) must not import server/(http|api|trpc|mcp) ' +
        'or app/: transports call into these layers, never the other way round. Move the shared piece down.',
      severity: 'error',
      from: { path: LOWER, pathNot: TEST },
      to: { path: TRANSPORT },
    },
    {
      name: 'ui-only-trpc-types',
      comment:
        'UI code (app/ outside app/api/) reaches the server only through tRPC (the router types, and ' +
        'server/trpc/membership for server components) and the client-safe constants ' +
        '(server/client-safe/). Anything else belongs behind a tRPC procedure.',
      severity: 'error',
      from: { path: '^app/', pathNot: ['^app/api/', TEST] },
      to: { path: '^server/', pathNot: '^server/(trpc|client-safe)/' },
    },
    {
      name: 'client-safe-imports-nothing',
      comment:
        'server/client-safe/ is bundled into the browser: it imports nothing but itself (no server ' +
        'module, no package), so importing it can never pull server code into the page.',
      severity: 'error',
      from: { path: '^server/client-safe/', pathNot: TEST },
      to: { pathNot: '^server/client-safe/' },
    },
    {
      name: 'not-to-test-from-product',
      comment: 'Product code must not import tests, test helpers, e2e specs or benchmarks.',
      severity: 'error',
      from: { path: '^(server|app)/|^[^/]+\\.tsx?$', pathNot: TEST },
      to: { path: TEST },
    },
    {
      name: 'no-unresolvable',
      comment: 'This import does not resolve to a file (a typo, a moved module or a missing package).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|\\.next|\\.data)/|^server/db/generated/' },
    // `import type` and `export type … from` are dependencies too (they vanish only after compilation).
    tsPreCompilationDeps: true,
    // Resolves the `@/*` path alias the way TypeScript and Next.js do.
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
