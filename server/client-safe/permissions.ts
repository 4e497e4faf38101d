// Who may do what: the one permission table (as Dub's `permissions.ts`). Every REST route names the
// permission it needs (`server/http/route.ts`); its tRPC procedure and assistant tool are derived from
// the route, so they need the same one. The dashboard reads the viewer's permissions (from this table)
// to show or hide actions, and never decides by role itself. Client-safe: imports nothing.
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
  /** The tenant's own settings (GET|PATCH /tenant): who may frame its booking pages. */
  'tenant.read': ['admin'],
  'tenant.write': ['admin'],
  /**
   * Connecting an AI assistant to POST /mcp. Each of its tools then needs its REST twin's permission
   * as well (server/mcp/tools.ts).
   */
  'assistant_tools.use': ['admin', 'agent'],
  /** The dashboard's home: the tenant's delivery chart, failing endpoints, queue and today. */
  'overview.read': ['admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function hasPermission(role: Role | null | undefined, permission: Permission): boolean {
  return role != null && (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

/** Every permission of a role, in the table's order (what the dashboard's viewer carries). */
export function permissionsOf(role: Role | null | undefined): Permission[] {
  return (Object.keys(PERMISSIONS) as Permission[]).filter((p) => hasPermission(role, p));
}

/** The roles that hold a permission, for the OpenAPI description of a route. */
export function rolesWith(permission: Permission): readonly Role[] {
  return PERMISSIONS[permission];
}
