// The audit log's one writer (docs/decisions.md "Tenant administration"). An operation calls `recordAudit(tx, ctx, …)` in the
// unit of work of its change (server/db/unit-of-work.ts), so the change and its entry commit or fail
// together; or it is wrapped whole by `audited(op, describe)`, which runs it in one unit and records
// the entry after it.
// Entries name an action, who acted (the person or API key of the context) and what was acted on, by
// id only: nothing else of the request goes in, so no entry can hold a secret. Changes made by the
// system (operator CLI, demo seed, background jobs) are not the tenant's people or keys and are not
// recorded (see the OpenAPI description of GET /audit-log).

import type { AuditAction, AuditTargetType } from '@/server/client-safe/audit-actions';
import { transaction, type UnitOfWork } from '@/server/db/unit-of-work';
import { type Actor, inUnit, type OperationContext } from '@/server/domain/context';
import { newId } from '@/server/lib/ids';
import { insertAuditEntry } from './sql/insert-audit-entry';

/** Who an entry names: the context's actor, or Stripe (a change made in its dashboard, told by its webhook). */
export type AuditActor = Actor | { type: 'stripe' };

export interface AuditEntry {
  action: AuditAction;
  target: { type: AuditTargetType; id: string };
  /** The assistant's tool that made the change (`assistant.tool_called` only). */
  tool?: string;
  /** What the entry adds about the change, by value (payment.refunded: `{amount, currency}`); never a secret. */
  details?: Record<string, string | number>;
  /**
   * Who acted, when not the context's actor: a refund Stripe reports (`{type: 'stripe'}`), or one the
   * service made itself (`{type: 'system'}`, recorded because it is named).
   */
  actor?: AuditActor;
}

/** In the unit of work of the change. */
export async function recordAudit(tx: UnitOfWork, ctx: OperationContext, entry: AuditEntry): Promise<void> {
  const actor = entry.actor ?? ctx.actor;
  // The service's own changes are not recorded, unless an entry names it (a refund it made).
  if (actor.type === 'system' && !entry.actor) return;
  await insertAuditEntry.execute(
    tx,
    newId('auditEntry'),
    ctx.tenantId,
    entry.action,
    actor.type,
    actor.type === 'stripe' || actor.type === 'system' ? null : actor.id,
    entry.target.type,
    entry.target.id,
    entry.tool ?? null,
    JSON.stringify(entry.details ?? {}),
    // The address of the request, when the entry's actor made it.
    entry.actor ? null : (ctx.clientAddress ?? null),
  );
}

/**
 * When the operation runs for one of the AI assistant's tools (`ctx.tool`, set by the MCP endpoint):
 * its `assistant.tool_called` entry, in the transaction of the change, so a business sees what its
 * assistant did and with which credential. Nothing for any other caller. Called once per operation,
 * in the transaction that makes its change (a placement retried on another resource rolls back with
 * the entry of the failed attempt).
 */
export async function recordToolCall(
  tx: UnitOfWork,
  ctx: OperationContext,
  target: { type: 'booking' | 'conversation'; id: string },
): Promise<void> {
  if (!ctx.tool) return;
  await recordAudit(tx, ctx, { action: 'assistant.tool_called', target, tool: ctx.tool });
}

/**
 * Under an assistant session every tool call is recorded (the business sees each thing its assistant
 * did for a customer), reads included: a read tool's call, after it answered, with the session's
 * conversation as target. A staff credential's reads record nothing (recordToolCall covers changes).
 */
export async function recordToolRead(ctx: OperationContext): Promise<void> {
  if (!ctx.tool || !ctx.actingFor) return;
  const { conversationId } = ctx.actingFor;
  await transaction(ctx, (tx) =>
    recordAudit(tx, ctx, {
      action: 'assistant.tool_called',
      target: { type: 'conversation', id: conversationId },
      tool: ctx.tool,
    }),
  );
}

/**
 * The operation, run in one unit of work with its audit entry (made from its input and result by
 * `entryOf`). The operation gets a context inside that unit (`inUnit`): what it reads and writes
 * through `ctx.db` is in the transaction, and its own `transaction(ctx, …)` joins it.
 */
export function audited<I, R>(
  operation: (ctx: OperationContext, input: I) => Promise<R>,
  entryOf: (input: I, result: R) => AuditEntry,
) {
  return (ctx: OperationContext, input: I): Promise<R> =>
    transaction(ctx, async (tx) => {
      const result = await operation(await inUnit(ctx, tx), input);
      await recordAudit(tx, ctx, entryOf(input, result));
      return result;
    });
}
