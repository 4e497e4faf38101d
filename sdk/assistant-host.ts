// An assistant host, as docs/integrators.md ("Answer your customers with an assistant") walks through
// it: it receives `conversation.message.received` on its webhook, mints an assistant session for that
// conversation with its own restricted key, and runs its model with the official MCP SDK client and
// the session token. The model never sees the key (nor the token): it asks for tool calls, the host
// makes them, and the session lets them act only for that conversation's customer.
//
// Run it with your model plugged into `runModel` (any LLM with tool use: pass it `tools` as its tool
// definitions and call `callTool` for each tool use it answers):
//
//   SWITCHBOARD_API_URL=… SWITCHBOARD_TENANT_ID=… SWITCHBOARD_API_KEY=sk_live_… (the assistant preset)
//   SWITCHBOARD_WEBHOOK_SECRET=whsec_… PORT=8787 node --import tsx sdk/assistant-host.ts
//
// It compiles with the project (`npm run typecheck`), and
// test/api/assistant-host-flow.integration.test.ts runs this very file end to end.
import { createServer } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Webhook } from 'standardwebhooks';

export interface HostOptions {
  /** Switchboard's base URL, without /api/v1. */
  baseUrl: string;
  tenantId: string;
  /** The host's own API key: the "Assistant host" preset (assistant_sessions.create, conversations.read, services.read). */
  apiKey: string;
  /** The signing secret of the webhook endpoint that points at this host (whsec_…). */
  webhookSecret: string;
  /** Your model: one turn of the conversation, calling tools through `callTool` as it decides. */
  runModel: (turn: ModelTurn) => Promise<void>;
  /** How long each session works (60..3600 s); the host ends it as soon as the turn is done. */
  sessionSeconds?: number;
}

export interface ModelTurn {
  /** What Switchboard tells a model about these tools (the MCP `instructions`). */
  instructions: string;
  /** The tools, with the JSON Schemas to hand the model as its tool definitions. */
  tools: Tool[];
  /** The conversation so far, oldest first (the customer's newest message last). */
  history: { from: 'customer' | 'business'; text: string }[];
  /** Makes one tool call for the model: a refusal is a result with isError, for the model to read. */
  callTool: (name: string, args: Record<string, unknown>) => Promise<CallToolResult>;
}

interface Delivered {
  type: string;
  data: { object: { conversation_id: string; direction: string } };
}

/** The host's webhook handler (a web-standard Request → Response) and a way to wait for its turns. */
export function createAssistantHost(options: HostOptions) {
  const api = `${options.baseUrl}/api/v1`;
  const headers = {
    'X-Tenant-ID': options.tenantId,
    Authorization: `Bearer ${options.apiKey}`,
    'Content-Type': 'application/json',
  };
  const verifier = new Webhook(options.webhookSecret);
  const seen = new Set<string>();
  const turns = new Set<Promise<void>>();

  /** One turn: a session for the conversation, the model with its tools, then the session ended. */
  async function answer(conversationId: string): Promise<void> {
    const minted = await fetch(`${api}/conversations/${conversationId}/assistant-sessions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ttl_seconds: options.sessionSeconds ?? 300 }),
    });
    if (minted.status === 409) return; // resolved meanwhile, or too many sessions: nothing to do now
    if (minted.status !== 201) throw new Error(`minting a session answered ${minted.status}`);
    const session = (await minted.json()) as { id: string; token: string };
    const client = new Client({ name: 'assistant-host', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${api}/mcp`), {
          requestInit: {
            headers: { 'X-Tenant-ID': options.tenantId, Authorization: `Bearer ${session.token}` },
          },
        }),
      );
      const messages = await fetch(`${api}/conversations/${conversationId}/messages?limit=20`, { headers });
      const page = (await messages.json()) as { data: { direction: string; text: string }[] };
      await options.runModel({
        instructions: client.getInstructions() ?? '',
        tools: (await client.listTools()).tools,
        history: page.data
          .map((m) => ({
            from: m.direction === 'inbound' ? ('customer' as const) : ('business' as const),
            text: m.text,
          }))
          .reverse(),
        callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
      });
    } finally {
      await client.close();
      await fetch(`${api}/assistant-sessions/${session.id}`, { method: 'DELETE', headers });
    }
  }

  async function handle(request: Request): Promise<Response> {
    const body = await request.text();
    let event: Delivered;
    try {
      event = verifier.verify(body, Object.fromEntries(request.headers)) as Delivered;
    } catch {
      return new Response(null, { status: 401 }); // forged, tampered or stale
    }
    const id = request.headers.get('webhook-id') ?? '';
    if (seen.has(id)) return new Response(null, { status: 204 }); // delivered again: at-least-once
    seen.add(id);
    if (seen.size > 10_000) seen.delete(seen.values().next().value as string);
    if (event.type === 'conversation.message.received' && event.data.object.direction === 'inbound') {
      // Answer the webhook now (it must get a 2xx within 10 s); the turn runs after.
      const turn = answer(event.data.object.conversation_id)
        .catch((error: unknown) => console.error('assistant turn failed', error))
        .finally(() => turns.delete(turn));
      turns.add(turn);
    }
    return new Response(null, { status: 204 });
  }

  return {
    handle,
    /** Resolves once every turn under way has finished (for a graceful stop). */
    settled: async () => {
      while (turns.size > 0) await Promise.all(turns);
    },
  };
}

/** `handle` behind a node:http server. */
export function listen(host: ReturnType<typeof createAssistantHost>, port: number) {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers))
      if (typeof value === 'string') headers.set(key, value);
    const response = await host.handle(
      new Request(`http://localhost${req.url}`, { method: req.method, headers, body: Buffer.concat(chunks) }),
    );
    res.writeHead(response.status).end(await response.text());
  });
  return new Promise<typeof server>((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const env = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`set ${name}`);
    return value;
  };
  const host = createAssistantHost({
    baseUrl: env('SWITCHBOARD_API_URL'),
    tenantId: env('SWITCHBOARD_TENANT_ID'),
    apiKey: env('SWITCHBOARD_API_KEY'),
    webhookSecret: env('SWITCHBOARD_WEBHOOK_SECRET'),
    runModel: async () => {
      throw new Error('plug your model in here (see docs/integrators.md)');
    },
  });
  await listen(host, Number(process.env.PORT ?? 8787));
  console.log(`assistant host listening on port ${process.env.PORT ?? 8787}`);
}
