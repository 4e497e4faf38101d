// GET /docs (docs/decisions.md "Integrator tools"): the interactive API reference, rendered in the browser by Scalar from
// GET /api/v1/openapi.json. Public, like the document. Everything it loads comes from this app: the
// renderer's script (/docs/scalar.js), no web fonts, no telemetry, no AI agent, no request proxy
// ("Try it" requests go straight to this server's /api/v1). Its scripts carry the request's CSP
// nonce (server/http/content-security-policy.ts).
import { scalarBundle } from './scalar-bundle';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

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
