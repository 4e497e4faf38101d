// The import rules `npm run lint` enforces (dependency-cruiser 17): the direction README "Map of the
// code" describes, one rule per claim. Paths are relative to the directory depcruise runs in
// (the project root). Type-only imports (`import type`, `export type … from`) and dynamic `import()`
// count like any other import: a cycle or a layer breach through them is still one.
// test/platform/layering-rules.test.ts runs this same file on small fixture projects (one failing fixture per rule),
// and checks that the real tree breaks none of them, so change both together.

/** Test code: exempt from the layer rules (it may import anything), never imported by product code. */
const TEST = '\\.(test|spec)\\.tsx?$|^(test|e2e|bench)/';
/** The transports: REST handlers and schemas, tRPC, the assistant's tools (MCP), and the Next.js app. */
const TRANSPORT = '^(server/(http|api|trpc|mcp)|app)/';
/** What starts the service or one of its tools: they may import anything below them. */
const ENTRY = '^(instrumentation|proxy)\\.ts$|^server/(launcher|cli)/';
/** Everything in server/ below the transports (and not an entry point). */
const LOWER = '^server/(?!(http|api|trpc|mcp|launcher|cli)/)';
/** Data and support: the bottom layer, which imports nothing of the service above it. */
const BASE = '^server/(db|security|lib|config)/|^server/log\\.ts$';
/**
 * What the rest of the service may import from server/webhooks/: the operations (index.ts), the
 * outbox (recordEvent), the resource schemas, webhook secrets, and the signer and sender (the CLI's
 * `listen` signs as deliveries do).
 */
const WEBHOOKS_PUBLIC = [
  '^server/webhooks/(index|outbox|schemas|secrets)\\.ts$',
  '^server/webhooks/attempt/(sign|send)\\.ts$',
];

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
        'Nothing in server/ below the transports (domain, webhooks, events, auth, jobs, whatsapp, data …) ' +
        'may import server/(http|api|trpc|mcp) or app/: transports call into these layers, never the other ' +
        'way round. Move the shared piece down.',
      severity: 'error',
      from: { path: LOWER, pathNot: TEST },
      to: { path: TRANSPORT },
    },
    {
      name: 'base-imports-nothing-above',
      comment:
        'server/(db|security|lib|config) and server/log.ts are the bottom layer: they import only each ' +
        'other. Pass what they need in, or move the code up to the layer that owns it.',
      severity: 'error',
      from: { path: BASE, pathNot: TEST },
      to: { path: '^(server|app)/|^[^/]+\\.tsx?$', pathNot: [BASE, '^server/db/generated/'] },
    },
    {
      name: 'webhooks-uses-only-context-and-audit-of-domain',
      comment:
        'server/webhooks may import from server/domain only the operation context (context.ts) and the ' +
        'audit log (audit/): the other areas call into webhooks (recordEvent), never the other way round.',
      severity: 'error',
      from: { path: '^server/webhooks/', pathNot: TEST },
      to: { path: '^server/domain/', pathNot: '^server/domain/(context\\.ts$|audit/)' },
    },
    {
      name: 'webhooks-only-through-its-public-modules',
      comment:
        'Outside server/webhooks/, import only its public modules: index.ts (operations), outbox.ts ' +
        '(recordEvent), schemas.ts, secrets.ts, attempt/sign.ts and attempt/send.ts. The background ' +
        'runtime also runs the attempt (see runtime-runs-the-webhook-attempt).',
      severity: 'error',
      from: { pathNot: ['^server/webhooks/', '^server/runtime/', TEST] },
      to: { path: '^server/webhooks/', pathNot: WEBHOOKS_PUBLIC },
    },
    {
      name: 'runtime-runs-the-webhook-attempt',
      comment:
        'The background runtime (server/runtime/) reaches server/webhooks/ through its public modules, ' +
        'the one attempt it runs (attempt/) and the hand-over channel (hand-over.ts); never the ' +
        'endpoints, deliveries or notices inside it.',
      severity: 'error',
      from: { path: '^server/runtime/', pathNot: TEST },
      to: {
        path: '^server/webhooks/',
        pathNot: [...WEBHOOKS_PUBLIC, '^server/webhooks/(hand-over\\.ts$|attempt/)'],
      },
    },
    {
      name: 'runtime-at-the-edge',
      comment:
        'server/runtime/ (what runs in the background: the worker loops, the Inngest functions and relay, ' +
        'the periodic jobs) is started by the entry points; of the transports only the Next.js route ' +
        'handlers import it (Inngest mounts its functions at app/api/inngest; a writing request on a ' +
        'serverless host relays after its response). Nothing in the domain, webhooks or data layers does: ' +
        'they hand work over through rows and a NOTIFY.',
      severity: 'error',
      from: { pathNot: [ENTRY, '^server/runtime/', '^app/api/', TEST] },
      to: { path: '^server/runtime/' },
    },
    {
      name: 'runtime-kinds-never-import-each-other',
      comment:
        'The kinds of background work (server/runtime/deliveries, server/runtime/timers) share the claim ' +
        'loop, the relay and the Inngest client, never each other.',
      severity: 'error',
      from: { path: '^server/runtime/(deliveries|timers)/', pathNot: TEST },
      to: { path: '^server/runtime/(deliveries|timers)/', pathNot: '^server/runtime/$1/' },
    },
    {
      name: 'timer-planning-imports-only-data',
      comment:
        'server/timers/ is planning only (what the domain calls in the transaction of a change): it imports ' +
        'the data and support layer, nothing else. What a due timer does lives with the runtime ' +
        '(server/runtime/timers/fire.ts), which calls the domain.',
      severity: 'error',
      from: { path: '^server/timers/', pathNot: TEST },
      to: { path: '^(server|app)/', pathNot: [BASE, '^server/timers/', '^server/db/generated/'] },
    },
    {
      name: 'providers-below-the-domain',
      comment:
        "server/whatsapp and server/stripe are the providers' clients: their outbound calls, and the check " +
        'of their inbound traffic (signature, JSON, shape) before the domain sees it. They import only the ' +
        "data and support layer; what a verified notification does is the domain's " +
        '(domain/conversations/receive-whatsapp-webhook.ts, domain/payments/receive-stripe-webhook.ts).',
      severity: 'error',
      from: { path: '^server/(whatsapp|stripe)/', pathNot: TEST },
      to: { path: '^(server|app)/', pathNot: [BASE, '^server/(whatsapp|stripe)/', '^server/db/generated/'] },
    },
    {
      name: 'events-read-only-resource-schemas',
      comment:
        'server/events (catalog, payloads, envelope, listing, retention) sits below the areas whose events ' +
        'it describes: it may import their resource schemas (server/domain/*/schemas.ts, ' +
        'server/webhooks/schemas.ts) and the operation context, nothing else of them.',
      severity: 'error',
      from: { path: '^server/events/', pathNot: TEST },
      to: {
        path: '^server/(domain|webhooks)/',
        pathNot:
          '^server/domain/context\\.ts$|^server/domain/[^/]+/schemas\\.ts$|^server/webhooks/schemas\\.ts$',
      },
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
