// GET /docs (docs/decisions.md "Integrator tools"): the interactive API reference, rendered in the browser by Scalar from
// GET /api/v1/openapi.json. Public, like the document. Everything it loads comes from this app: the
// renderer's script (/docs/scalar.js), no web fonts, no telemetry, no AI agent, no request proxy
// ("Try it" requests go straight to this server's /api/v1). Its scripts carry the request's CSP
// nonce (server/http/content-security-policy.ts).
import { scalarBundle } from './scalar-bundle';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Mends what axe-core finds in the renderer's light theme (e2e/accessibility.spec.ts): muted text and
 * the HTTP method colours reach 4.5:1 on their backgrounds, and a code block's copy button keeps its
 * "Copy" label for screen readers while the label is visually hidden (the renderer hides it with
 * display: none, leaving the button nameless).
 */
const SCALAR_ACCESSIBILITY_CSS = `
.light-mode.light-mode {
  --scalar-color-2: #6b6b6b;
  --scalar-color-3: #6b6b6b;
  --scalar-color-green: #00774b;
  --scalar-color-blue: #0062c4;
  --scalar-color-orange: #9a5800;
  --scalar-color-red: #bd2229;
  --scalar-color-yellow: #7f6200;
  --scalar-color-purple: #6a3bbf;
}
.scalar-code-copy .hidden {
  display: inline;
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip-path: inset(50%);
  white-space: nowrap;
}
`;

const CONFIG = {
  url: '/api/v1/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  // Its "Open API Client" link leads to Scalar's hosted client; the reference's own "Test request" stays.
  hideClientButton: true,
  metaData: { title: 'Switchboard API reference' },
  customCss: SCALAR_ACCESSIBILITY_CSS,
};

export async function GET(request: Request): Promise<Response> {
  const { version } = await scalarBundle();
  // The page's Content-Security-Policy allows only scripts with this request's nonce (proxy.ts).
  const nonce = /^[A-Za-z0-9+/=]{16,64}$/.exec(request.headers.get('x-nonce') ?? '')?.[0] ?? '';
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Switchboard API reference</title>
    <link rel="icon" href="/icon.svg" />
  </head>
  <body>
    <noscript>The API reference needs JavaScript. The OpenAPI document itself: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</noscript>
    <!-- Not id="api-reference": the bundle mounts a second, empty reference on that id by itself. -->
    <div id="app"></div>
    <!-- The bundle's zod probes for eval (Function('')), which the CSP refuses; jitless skips the probe. -->
    <script nonce="${nonce}">globalThis.__zod_globalConfig = { jitless: true };</script>
    <script nonce="${nonce}" src="/docs/scalar.js?v=${encodeURIComponent(version)}"></script>
    <script nonce="${nonce}">Scalar.createApiReference('#app', ${JSON.stringify(CONFIG)});</script>
  </body>
</html>
`;
  return new Response(html, {
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' },
  });
}
