// Settings > Audit log: the same domain query and filters as REST GET /audit-log. Admins only.
import { listAuditLog } from '@/server/domain/audit/list-audit-log';
import { AuditLogQuery } from '@/server/domain/audit/schemas';
import { adminProcedure, createTRPCRouter, dashboardPage } from '@/server/trpc/init';

export const auditLogRouter = createTRPCRouter({
  list: adminProcedure
    .input(AuditLogQuery.partial().extend(dashboardPage(50)))
    .query(({ ctx, input }) => listAuditLog(ctx, input)),
});
