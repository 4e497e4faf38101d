// The Next.js server the launcher runs (`npm run dev` / `npm start`): Next's own request handler
// behind our HTTP server, so the one place that accepts connections decides the client address.
// `next start` keeps a client-sent X-Forwarded-For as it is, which would let any client choose the
// address its login attempts are counted under; here it is replaced by the peer address (or, with
// TRUST_PROXY_HOPS, the address the nearest trusted proxy recorded) before Next sees the request.
import { createServer } from 'node:http';
import next from 'next';
import { resolveClientAddress } from '@/server/http/client-address';

const dev = process.argv[2] === 'dev';
const port = Number(process.env.PORT ?? 3000);
const hops = Number(process.env.TRUST_PROXY_HOPS ?? 0);

const app = next({
  dev,
  port,
  hostname: 'localhost',
  dir: process.cwd(),
  ...(dev ? { turbopack: true } : {}),
});
await app.prepare();
const handle = app.getRequestHandler();
const upgrade = app.getUpgradeHandler();

const server = createServer((req, res) => {
  req.headers['x-forwarded-for'] = resolveClientAddress(
    req.headers['x-forwarded-for'],
    req.socket.remoteAddress,
    hops,
  );
  void handle(req, res);
});
// Idle keep-alive connections stay open longer than the usual load balancer keeps its own (60 s): a
// proxy (or a client pool) that reuses a connection the server is closing at that very moment gets
// "socket hang up" for a request the server never saw. Node's default is 5 s.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
// Development's hot reload talks over a WebSocket.
server.on('upgrade', (req, socket, head) => void upgrade(req, socket, head));
server.listen(port, () => console.log(`[switchboard] listening on http://localhost:${port}`));
