// The real API code behind a real HTTP socket on loopback, without Next's build step: the same
// function the Next catch-all route exports (app/api/v1/[[...path]]/route.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleApi } from '@/server/api/routes';
import { checkHealth } from '@/server/health';
import { resolveClientAddress } from '@/server/http/client-address';

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

export async function startApiServer(): Promise<TestServer> {
  const server: Server = createServer((req, res) => {
    void serve(req, res);
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

async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
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
  const request = new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? (req as unknown as ReadableStream) : undefined,
    duplex: 'half',
  } as RequestInit);
  let response: Response;
  if (new URL(url).pathname === '/api/health') {
    const ok = await checkHealth();
    response = Response.json({ status: ok ? 'ok' : 'unavailable' }, { status: ok ? 200 : 503 });
  } else {
    response = await handleApi(request);
  }
  res.statusCode = response.status;
  response.headers.forEach((value, key) => {
    res.setHeader(key, value);
  });
  res.end(Buffer.from(await response.arrayBuffer()));
}
