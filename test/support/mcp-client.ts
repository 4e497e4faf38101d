// The official MCP SDK's client against the test API's POST /api/v1/mcp, as an assistant connects:
// Streamable HTTP with the tenant header and a bearer credential on every request.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

export const MCP_PATH = '/api/v1/mcp';

export interface Assistant {
  client: Client;
  /** Calls a tool; a refusal is a result with isError, never a thrown protocol error. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Calls a tool that must succeed: its structured content (checked to equal its JSON text). */
  ok(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Calls a tool that must be refused: the problem document of its text. */
  refused(name: string, args?: Record<string, unknown>): Promise<Problem>;
  close(): Promise<void>;
}

export interface Problem {
  code: string;
  status: number;
  detail: string;
  request_id: string;
  errors?: { path: string; message: string }[];
}

const open: Client[] = [];

/** Closes every client connected by this file (call from afterAll). */
export async function closeAssistants(): Promise<void> {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => undefined)));
}

export async function connectAssistant(
  baseUrl: string,
  credential: { tenantId?: string; token?: string; headers?: Record<string, string> },
): Promise<Assistant> {
  const headers: Record<string, string> = { ...credential.headers };
  if (credential.tenantId) headers['X-Tenant-ID'] = credential.tenantId;
  if (credential.token) headers.Authorization = `Bearer ${credential.token}`;
  const client = new Client({ name: 'switchboard-tests', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(MCP_PATH, baseUrl), { requestInit: { headers } }),
  );
  open.push(client);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    client,
    call,
    ok: async (name, args) => {
      const result = await call(name, args);
      expect(result.isError, `${name} refused: ${textOf(result)}`).toBeFalsy();
      expect(JSON.parse(textOf(result)), `${name}: the text is the structured content`).toEqual(
        result.structuredContent,
      );
      return result.structuredContent as Record<string, unknown>;
    },
    refused: async (name, args) => {
      const result = await call(name, args);
      expect(result.isError, `${name} was not refused: ${textOf(result)}`).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      return JSON.parse(textOf(result)) as Problem;
    },
    close: () => client.close(),
  };
}

export function textOf(result: CallToolResult): string {
  const [first] = result.content;
  return first?.type === 'text' ? first.text : '';
}
