// The tenant's own record as its admins see and change it (GET|PATCH /tenant).
import { transaction } from '@/server/db/unit-of-work';
import { recordAudit } from '@/server/domain/audit/record-audit';
import type { OperationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import type { UpdateTenantInput } from './schemas';

function present(row: { id: string; name: string; bookingFrameOrigins: string[] | null }) {
  return { id: row.id, name: row.name, booking_page: { frame_origins: row.bookingFrameOrigins ?? [] } };
}

export async function getTenant(ctx: OperationContext) {
  const row = await ctx.db.tenant.findUnique({ where: { id: ctx.tenantId } });
  if (!row) throw Errors.notFound('Tenant');
  return present(row);
}

/** Only the fields sent change; audited as `tenant.updated`. */
export function updateTenant(ctx: OperationContext, input: UpdateTenantInput) {
  return transaction(ctx, async (tx) => {
    const db = await tx.orm();
    const row = await db.tenant.update({
      where: { id: ctx.tenantId },
      data: {
        ...(input.booking_page
          ? { bookingFrameOrigins: [...new Set(input.booking_page.frame_origins)] }
          : {}),
      },
    });
    await recordAudit(tx, ctx, { action: 'tenant.updated', target: { type: 'tenant', id: ctx.tenantId } });
    return present(row);
  });
}
