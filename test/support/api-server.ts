// The real API code behind a real HTTP socket on loopback, without Next's build step: the same
// function the Next catch-all route exports (app/api/v1/[[...path]]/route.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleApi } from '@/server/api/routes';
import { checkHealth } from '@/server/health';
import { MAX_BODY_BYTES } from '@/server/http/body';
import { resolveClientAddress } from '@/server/http/client-address';
import { checkExchange, prepareConformanceCheck } from './openapi-conformance';
import { recordVerdict } from './openapi-ledger';

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

/**
 * `checkConformance` (default true): check every exchange against the OpenAPI document and leave the
 * verdict for this process's tests. A server in a process of its own passes false: its clients
 * check what they see themselves (test/contract.ts).
 */
export async function startApiServer(options: { checkConformance?: boolean } = {}): Promise<TestServer> {
  const check = options.checkConformance ?? true;
  if (check) prepareConformanceCheck();
  const server: Server = createServer((req, res) => {
    void serve(req, res, check);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function serve(req: IncomingMessage, res: ServerResponse, check: boolean): Promise<void> {
  const url = `http://${req.headers.host}${req.url}`;
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined || key === 'x-forwarded-for') continue;
    headers.set(key, Array.isArray(value) ? value.join(', ') : value);
  }
  // As the production server does (server/launcher/next-server.ts): never a client-supplied address.
  headers.set(
    'x-forwarded-for',
    resolveClientAddress(req.headers['x-forwarded-for'], req.socket.remoteAddress, 0),
  );
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const sent = hasBody ? tapBody(req) : undefined;
  const request = new Request(url, {
    method: req.method,
    headers,
    body: sent?.stream,
    duplex: 'half',
  } as RequestInit);
  let response: Response;
  const isApi = new URL(url).pathname !== '/api/health';
  if (!isApi) {
    const ok = await checkHealth();
    response = Response.json({ status: ok ? 'ok' : 'unavailable' }, { status: ok ? 200 : 503 });
  } else {
    response = await handleApi(request);
  }
  const body = Buffer.from(await response.arrayBuffer());
  // Every exchange is checked against the OpenAPI document before the client sees the answer; the
  // verdict waits in the ledger for the client or the end of the test (test/openapi-ledger.ts).
  if (isApi && check) {
    const verdict = checkExchange({
      method: req.method ?? 'GET',
      target: req.url ?? '/',
      requestHeaders: headers,
      requestBody: sent?.text(),
      status: response.status,
      responseHeaders: response.headers,
      responseBody: body,
    });
    recordVerdict(response.headers.get('x-request-id'), verdict);
  }
  res.statusCode = response.status;
  response.headers.forEach((value, key) => {
    res.setHeader(key, value);
  });
  res.end(body);
}

/**
 * The request body passed on as it streams (the pipeline's size limit still sees it arrive), with
 * a copy for the conformance check: its text once read to the end, up to a little over the limit.
 */
function tapBody(req: IncomingMessage) {
  const chunks: Buffer[] = [];
  let size = 0;
  let complete = false;
  async function* stream() {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      if (size <= COPY_LIMIT) chunks.push(chunk);
      size += chunk.length;
      yield chunk;
    }
    complete = true;
  }
  return {
    stream: stream() as unknown as ReadableStream,
    text: () => (complete && size <= COPY_LIMIT ? Buffer.concat(chunks).toString('utf8') : undefined),
  };
}

const COPY_LIMIT = MAX_BODY_BYTES + 1;
