// The audit log's one writer (docs/decisions.md "Tenant administration"). An operation calls `recordAudit(tx, ctx, …)` inside the
// transaction of its change, so the change and its entry commit or fail together; or it is wrapped
// whole by `audited(op, describe)`, which runs it in one transaction and records the entry after it.
// Entries name an action, who acted (the person or API key of the context) and what was acted on, by
// id only: nothing else of the request goes in, so no entry can hold a secret. Changes made by the
// system (operator CLI, demo seed, background jobs) are not the tenant's people or keys and are not
// recorded (see the OpenAPI description of GET /audit-log).

import type { AuditAction, AuditTargetType } from '@/server/client-safe/audit-actions';
import { JOINED_TRANSACTION } from '@/server/db/sql-transaction';
import type { TenantDb, TenantTx } from '@/server/db/tenant-scope';
import type { Queryable } from '@/server/db/typed-sql';
import type { OperationContext } from '@/server/domain/context';
import { newId } from '@/server/lib/ids';
import { insertAuditEntry } from './sql/insert-audit-entry';

export interface AuditEntry {
  action: AuditAction;
  target: { type: AuditTargetType; id: string };
  /** The assistant's tool that made the change (`assistant.tool_called` only). */
  tool?: string;
}

/** The transaction of the change, of either kind (or the tenant client standing in for one). */
export async function recordAudit(tx: Queryable, ctx: OperationContext, entry: AuditEntry): Promise<void> {
  if (ctx.actor.type === 'system') return;
  await insertAuditEntry.execute(
    tx,
    newId('auditEntry'),
    ctx.tenantId,
    entry.action,
    ctx.actor.type,
    ctx.actor.id,
    entry.target.type,
    entry.target.id,
    entry.tool ?? null,
    ctx.clientAddress ?? null,
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
  tx: Queryable,
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
  await recordAudit(ctx.db, ctx, {
    action: 'assistant.tool_called',
    target: { type: 'conversation', id: ctx.actingFor.conversationId },
    tool: ctx.tool,
  });
}

/**
 * A transaction client standing in for the tenant client: an operation written against `ctx.db`
 * runs unchanged inside the caller's transaction, and its own `$transaction(fn)` joins it.
 */
function joined(tx: TenantTx): TenantDb {
  return new Proxy(tx, {
    get(target, property, receiver) {
      if (property === JOINED_TRANSACTION) return tx; // a hot write joins it (writeTransaction)
      if (property === '$transaction') {
        return async (work: unknown) => {
          if (typeof work === 'function') return (work as (t: TenantTx) => unknown)(tx);
          const results: unknown[] = [];
          for (const query of work as Promise<unknown>[]) results.push(await query);
          return results;
        };
      }
      return Reflect.get(target, property, receiver);
    },
  }) as unknown as TenantDb;
}

/**
 * Runs `work` in one transaction of the tenant, handing it a context whose `db` is that transaction
 * (for operations written against `ctx.db`) and the transaction itself.
 */
export function inTransaction<R>(
  ctx: OperationContext,
  work: (txCtx: OperationContext, tx: TenantTx) => Promise<R>,
) {
  return ctx.db.$transaction((tx) => work({ ...ctx, db: joined(tx) }, tx), { timeout: 15_000 });
}

/** The operation, run in one transaction with its audit entry (made from its input and result by `entryOf`). */
export function audited<I, R>(
  operation: (ctx: OperationContext, input: I) => Promise<R>,
  entryOf: (input: I, result: R) => AuditEntry,
) {
  return (ctx: OperationContext, input: I): Promise<R> =>
    inTransaction(ctx, async (txCtx) => {
      const result = await operation(txCtx, input);
      await recordAudit(txCtx.db, ctx, entryOf(input, result));
      return result;
    });
}
