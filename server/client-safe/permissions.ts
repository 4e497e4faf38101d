// Who may do what: the one permission table (as Dub's `permissions.ts`). Every REST route names the
// permission it needs (`server/http/route.ts`); its tRPC procedure and assistant tool are derived from
// the route, so they need the same one. A credential carries the permissions it holds (a person's
// role's, an API key's own set, an assistant session's fixed set: server/auth/principal.ts), and
// every check, on every transport and in the dashboard, is `allows(held, permission)`. The
// dashboard reads the viewer's permissions to show or hide actions, and never decides by role
// itself. Client-safe: imports nothing.
import type { Role } from './statuses';

export const PERMISSIONS = {
  'bookings.read': ['admin', 'agent'],
  'bookings.write': ['admin', 'agent'],
  'resources.read': ['admin', 'agent'],
  'resources.write': ['admin'],
  'services.read': ['admin', 'agent'],
  'services.write': ['admin'],
  'conversations.read': ['admin', 'agent'],
  'conversations.write': ['admin', 'agent'],
  'payments.read': ['admin', 'agent'],
  'payments.write': ['admin'],
  /** Connecting Stripe: its keys and webhook URL (PUT/GET/DELETE /payment-providers). */
  'payment_providers.read': ['admin'],
  'payment_providers.write': ['admin'],
  'event_types.read': ['admin', 'agent'],
  'events.read': ['admin'],
  'webhooks.read': ['admin'],
  'webhooks.write': ['admin'],
  'channels.read': ['admin'],
  'channels.write': ['admin'],
  'api_keys.read': ['admin'],
  'api_keys.write': ['admin'],
  'members.read': ['admin'],
  'members.write': ['admin'],
  'audit_log.read': ['admin'],
  /**
   * Connecting an AI assistant to POST /mcp. Each of its tools then needs its REST twin's permission
   * as well (server/mcp/tools.ts).
   */
  'assistant_tools.use': ['admin', 'agent'],
  /**
   * Minting (and ending) an assistant session: a short-lived token that lets a model use the
   * customer-bound tools for one conversation's contact and nothing else (server/mcp/session-tools.ts).
   */
  'assistant_sessions.create': ['admin', 'agent'],
  /** The dashboard's home: the tenant's delivery chart, failing endpoints, queue and today. */
  'overview.read': ['admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

/** Every permission, in the table's order. */
export const ALL_PERMISSIONS = Object.keys(PERMISSIONS) as Permission[];

export function isPermission(name: unknown): name is Permission {
  return typeof name === 'string' && Object.hasOwn(PERMISSIONS, name);
}

/**
 * The one permission check: whether a credential holding `held` may do what needs `permission`. The
 * REST pipeline, the tRPC procedures, the assistant's tools and the dashboard's viewer all ask here.
 */
export function allows(held: readonly Permission[], permission: Permission): boolean {
  return held.includes(permission);
}

/** Every permission of a role, in the table's order (what a person's credential carries). */
export function permissionsOf(role: Role | null | undefined): Permission[] {
  return role == null
    ? []
    : ALL_PERMISSIONS.filter((p) => (PERMISSIONS[p] as readonly Role[]).includes(role));
}

export function hasPermission(role: Role | null | undefined, permission: Permission): boolean {
  return allows(permissionsOf(role), permission);
}

/** The roles that hold a permission, for the OpenAPI description of a route. */
export function rolesWith(permission: Permission): readonly Role[] {
  return PERMISSIONS[permission];
}

/** `permissions` in the table's order, each once. */
export function inTableOrder(permissions: readonly Permission[]): Permission[] {
  return ALL_PERMISSIONS.filter((p) => permissions.includes(p));
}

/**
 * What an assistant session token holds: the MCP endpoint and the permissions of the routes its
 * customer-bound tools run (server/mcp/session-tools.ts; a test checks the two agree). The token
 * reaches no other route (server/http/dispatch.ts), and its tools act only for its conversation's
 * contact.
 */
export const ASSISTANT_SESSION_PERMISSIONS: readonly Permission[] = [
  'bookings.read',
  'bookings.write',
  'conversations.write',
  'assistant_tools.use',
];

/**
 * The dashboard's starting points for a new API key (docs/decisions.md "Restricted keys"):
 * - full: every permission of the admin role, now and as the role grows (the key a server
 *   integration of one's own uses; `permissions` omitted);
 * - read_only: every `.read` permission of the admin role, nothing that changes anything (a
 *   reporting or BI tool, a data export);
 * - assistant: what an assistant's host needs and no more: mint a session per conversation
 *   (the model gets only that session's token), read the conversation it answers, and read the
 *   services it offers. Not `assistant_tools.use`: the key itself never reaches a model.
 */
export const KEY_PRESETS = {
  full: {
    label: 'Full access',
    description: 'Everything an admin can do. For your own servers.',
    permissions: permissionsOf('admin'),
  },
  read_only: {
    label: 'Read only',
    description: 'Reads everything, changes nothing. For reporting and exports.',
    permissions: permissionsOf('admin').filter((p) => p.endsWith('.read')),
  },
  assistant: {
    label: 'Assistant host',
    description:
      'Mints a short-lived session per conversation for an AI assistant, reads that conversation and the services. The model never holds this key.',
    permissions: inTableOrder(['assistant_sessions.create', 'conversations.read', 'services.read']),
  },
} as const satisfies Record<string, { label: string; description: string; permissions: Permission[] }>;

export type KeyPreset = keyof typeof KEY_PRESETS;
