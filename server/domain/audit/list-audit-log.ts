import type { AuditAction, AuditActorType, AuditTargetType } from '@/server/client-safe/audit-actions';
import type { AuditLog } from '@/server/db/generated/client';
import { paginate } from '@/server/db/pagination';
import type { OperationContext } from '@/server/domain/context';
import type { PageInput } from '@/server/lib/schemas';
import type { AuditLogEntry, AuditLogQuery } from './schemas';

/** The tenant's audit entries, newest first, with the filters of GET /audit-log. */
export function listAuditLog(ctx: OperationContext, query: Omit<AuditLogQuery, 'limit'> & PageInput) {
  const createdAt = {
    ...(query.created_after ? { gte: new Date(query.created_after) } : {}),
    ...(query.created_before ? { lt: new Date(query.created_before) } : {}),
  };
  return paginate(
    query,
    ({ after, take }) =>
      ctx.db.auditLog.findMany({
        where: {
          ...after,
          ...(query.action ? { action: query.action } : {}),
          ...(query.actor_id ? { actorId: query.actor_id } : {}),
          ...(Object.keys(createdAt).length > 0 ? { createdAt } : {}),
        },
        orderBy: { id: 'desc' },
        take,
      }),
    serializeAuditEntry,
  );
}

export function serializeAuditEntry(row: AuditLog): AuditLogEntry {
  return {
    id: row.id,
    action: row.action as AuditAction,
    actor:
      row.actorId === null
        ? { type: row.actorType as 'stripe' | 'system' }
        : { type: row.actorType as AuditActorType, id: row.actorId },
    target: { type: row.targetType as AuditTargetType, id: row.targetId },
    tool: row.tool,
    details: (row.details ?? {}) as Record<string, string | number>,
    ip: row.ip,
    created_at: row.createdAt.toISOString(),
  };
}
