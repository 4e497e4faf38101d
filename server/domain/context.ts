// What every tenant operation receives first: the tenant-scoped client, the tenant, and who acts.
// Transports build it once per request (REST from the credential, tRPC from the session, the CLI
// and background jobs as the system). An operation (what a transport, a job or another area calls to
// act for one tenant) takes `(ctx, input)`, never a loose `db`/`tenantId`. Only two kinds of code
// name a tenant without a context: a helper running inside an operation's transaction gets that
// unit of work (`UnitOfWork`, which knows its tenant); and a cross-tenant pass (the delivery
// engines, retention, the periodic jobs) finds rows of many tenants and builds
// `operationContext(tenantId, SYSTEM_ACTOR)` before it acts for one of them.
import type { Permission } from '@/server/client-safe/permissions';
import { forTenant, type TenantTx } from '@/server/db/tenant-scope';
import type { UnitOfWork } from '@/server/db/unit-of-work';

/**
 * Who caused a change: a signed-in person, an API key, an AI assistant through an assistant session
 * (POST /conversations/{id}/assistant-sessions), or the service itself (jobs, CLI, seed).
 */
export type Actor =
  | { type: 'user'; id: string }
  | { type: 'api_key'; id: string }
  | { type: 'assistant_session'; id: string }
  | { type: 'system' };

/**
 * The one customer an operation acts for, when an assistant session runs it: the session's
 * conversation and its contact. Operations that read or change bookings and conversations honour it
 * (server/domain/assistant-sessions/customer-scope.ts): they find only the contact's bookings and this
 * conversation, and book for the contact, whatever the input names.
 */
export interface ActingFor {
  conversationId: string;
  contact: { name: string | null; phone: string | null };
}

export interface OperationContext {
  /**
   * The tenant's client, for reads and single writes; inside a unit of work (`tx`), that unit's
   * Prisma transaction. It has no `$transaction`: a transaction is `transaction(ctx, work)`
   * (server/db/unit-of-work.ts).
   */
  db: TenantTx;
  tenantId: string;
  /** The unit of work this operation runs inside (see `inUnit`): `transaction(ctx, …)` joins it. */
  tx?: UnitOfWork;
  actor: Actor;
  /** The caller's address (server/http/client-address.ts), recorded in the audit log; none for the system. */
  clientAddress?: string;
  /**
   * The caller's Idempotency-Key on this request, when it sent one (REST POST). An operation that calls
   * a provider derives the provider's own idempotency key from it, so a retried request is replayed
   * there too instead of being done twice (a Stripe refund: server/domain/payments/refund-payment.ts).
   */
  requestKey?: string;
  /**
   * The AI assistant's tool (MCP, server/mcp/tools.ts) this operation runs for. An operation that
   * changes something records `assistant.tool_called` naming it, in the transaction of its change
   * (`recordToolCall`, server/domain/audit/record-audit.ts).
   */
  tool?: string;
  /** Set only under an assistant session: the customer the operation acts for, and no one else. */
  actingFor?: ActingFor;
  /**
   * The caller's permissions (server/client-safe/permissions.ts), for the operations whose rule
   * depends on them (a key is minted only with permissions its creator holds). None for the system.
   */
  permissions?: readonly Permission[];
}

export const SYSTEM_ACTOR: Actor = { type: 'system' };

export function operationContext(tenantId: string, actor: Actor, clientAddress?: string): OperationContext {
  return { db: forTenant(tenantId), tenantId, actor, ...(clientAddress ? { clientAddress } : {}) };
}

/**
 * The context for operations called inside the unit `tx`: their `transaction(ctx, …)` joins it and
 * their `ctx.db` is its Prisma transaction (which this begins, when nothing ran in `tx` yet).
 */
export async function inUnit(ctx: OperationContext, tx: UnitOfWork): Promise<OperationContext> {
  return { ...ctx, db: await tx.orm(), tx };
}
