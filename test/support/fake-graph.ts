// A stand-in for Meta's Graph API on loopback: records every request, answers `POST
// /{phone_number_id}/messages` with a wamid (or with the error set for that number), `GET
// /{phone_number_id}` with the number when the token is not one the test rejected, and `GET
// /{media_id}` with the URL of a file added with `addMedia` (served at /files/{id} to its token only).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GraphRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

export interface FakeGraph {
  url: string;
  requests: GraphRequest[];
  /** Make sends from this phone_number_id answer with this status and body (the next `times` only). */
  failFor(phoneNumberId: string, status: number, body: unknown, times?: number): void;
  /** A media file Meta holds for messages of a channel with this token. */
  addMedia(mediaId: string, file: { bytes: Buffer; mimeType: string; token: string; length?: boolean }): void;
  /** Make `GET /{phone_number_id}` refuse this access token, as Meta does for a made-up one. */
  rejectToken(token: string): void;
  close(): Promise<void>;
}

export async function startFakeGraph(port = 0): Promise<FakeGraph> {
  const requests: GraphRequest[] = [];
  const failures = new Map<string, { status: number; body: unknown; times: number }>();
  const media = new Map<string, { bytes: Buffer; mimeType: string; token: string; length?: boolean }>();
  const rejected = new Set<string>();
  let counter = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '';
      requests.push({
        method: req.method ?? '',
        path,
        authorization: req.headers.authorization,
        body: text ? JSON.parse(text) : undefined,
      });
      const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
      const file = /^\/files\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && file) {
        const found = media.get(file[1]);
        if (!found || found.token !== token) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, {
          'Content-Type': found.mimeType,
          ...(found.length === false ? {} : { 'Content-Length': String(found.bytes.length) }),
        });
        res.end(found.bytes);
        return;
      }
      res.setHeader('Content-Type', 'application/json');
      const number = /^\/v21\.0\/([^/]+)$/.exec(path);
      const mediaFile = number && media.get(number[1]);
      if (req.method === 'GET' && mediaFile) {
        if (mediaFile.token !== token) {
          res.statusCode = 400;
          res.end(JSON.stringify({ error: { message: 'Unsupported get request', code: 100 } }));
          return;
        }
        const own = (server.address() as AddressInfo).port;
        res.end(
          JSON.stringify({
            id: number[1],
            url: `http://127.0.0.1:${own}/files/${number[1]}`,
            mime_type: mediaFile.mimeType,
            file_size: mediaFile.bytes.length,
            messaging_product: 'whatsapp',
          }),
        );
        return;
      }
      if (req.method === 'GET' && number) {
        if (rejected.has(token)) {
          res.statusCode = 401;
          res.end(
            JSON.stringify({
              error: { message: 'Invalid OAuth access token', type: 'OAuthException', code: 190 },
            }),
          );
          return;
        }
        res.end(
          JSON.stringify({ id: number[1], display_phone_number: '+1 555 0100', verified_name: 'Test' }),
        );
        return;
      }
      const match = /^\/v21\.0\/([^/]+)\/messages$/.exec(path);
      if (req.method !== 'POST' || !match) {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { message: 'Unknown path', code: 100 } }));
        return;
      }
      const failure = failures.get(match[1]);
      if (failure && failure.times > 0) {
        failure.times--;
        res.statusCode = failure.status;
        res.end(JSON.stringify(failure.body));
        return;
      }
      const to = (JSON.parse(text) as { to: string }).to;
      counter++;
      res.end(
        JSON.stringify({
          messaging_product: 'whatsapp',
          contacts: [{ input: to, wa_id: to }],
          messages: [{ id: `wamid.OUT${String(counter).padStart(6, '0')}` }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v21.0`,
    requests,
    failFor: (id, status, body, times = Number.POSITIVE_INFINITY) =>
      failures.set(id, { status, body, times }),
    addMedia: (id, file) => media.set(id, file),
    rejectToken: (token) => rejected.add(token),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A Cloud API webhook payload for one phone number, as Meta sends it. */
export function whatsappPayload(
  phoneNumberId: string,
  value: { messages?: object[]; statuses?: object[]; contacts?: object[] },
): object {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

export const textMessage = (id: string, from: string, body: string) => ({
  from,
  id,
  timestamp: String(Math.floor(Date.now() / 1000)),
  type: 'text',
  text: { body },
});

export const receipt = (id: string, status: string, extra: object = {}) => ({
  id,
  status,
  timestamp: String(Math.floor(Date.now() / 1000)),
  recipient_id: '16505551234',
  ...extra,
});
