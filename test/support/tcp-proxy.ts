// A loopback TCP proxy in front of PostgreSQL that a test can take down and bring back, to play a
// database outage without stopping the server every test file shares, or turn into a blackhole: the
// connections stay open but nothing passes either way (as when a load balancer or NAT drops an idle
// connection without a reset), so each side waits for an answer that never comes.

import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Drops every open connection and refuses new ones. */
  down(): Promise<void>;
  up(): Promise<void>;
  /** Stops forwarding without closing anything: bytes either way (new connections' too) are dropped. */
  blackhole(): void;
  /** Forwards again (what was dropped meanwhile stays lost). */
  forward(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let blackholed = false;
  const serve = (client: Socket) => {
    const upstream = connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    const relay = (from: Socket, to: Socket) => {
      from.on('data', (chunk) => {
        if (!blackholed) to.write(chunk);
      });
      from.on('end', () => to.end());
    };
    relay(client, upstream);
    relay(upstream, client);
  };
  let server: Server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  return {
    port,
    down: stop,
    async up() {
      server = createServer(serve);
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    blackhole() {
      blackholed = true;
    },
    forward() {
      blackholed = false;
    },
    close: stop,
  };
}
