// A transaction-scoped lock on one kind of a tenant's rows, for rules that count before they insert
// (at most N webhook endpoints or API keys per tenant): concurrent creations of that kind for that
// tenant run one after the other, so the count cannot be overtaken. Other tenants and other kinds
// are not held up. Call inside the transaction that inserts.
import type { Prisma } from './generated/client';

interface RawExecutor {
  $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number>;
}

export async function lockTenantRows(db: RawExecutor, tenantId: string, kind: string): Promise<void> {
  await db.$executeRaw`select pg_advisory_xact_lock(hashtextextended(${`${kind}:${tenantId}`}, 0))`;
}
