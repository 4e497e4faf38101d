// The one path to tenant data. `forTenant(id)` returns the database client with every query on a
// tenant-owned model narrowed to that tenant: filters get `tenantId`, creates get `tenantId` (and a
// create naming another tenant throws). A query can therefore not forget the tenant, and a row of
// another tenant is simply not found.
import { isUuid } from '@/server/lib/ids';
import { type Db, db } from './client';
import { Prisma } from './generated/client';

/** The models that belong to a tenant (each has its tenant_id; raw SQL on their tables names it too). */
export const TENANT_MODELS = new Set<string>([
  'Membership',
  'ApiKey',
  'RefreshToken',
  'Booking',
  'Channel',
  'Conversation',
  'Message',
  'Payment',
  'Event',
  'WebhookEndpoint',
  'Delivery',
  'DeliveryAttempt',
  'DeliveryClaim',
  'IdempotencyKey',
  'AuditLog',
  'Invitation',
  'PasswordReset',
  'PaymentProviderConnection',
  'StripeEvent',
  'StripeRefund',
  'Resource',
  'TimeOff',
  'Service',
  'Timer',
  'Offer',
  'Choice',
  'AssistantSession',
]);

const FILTERED = new Set([
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'count',
  'aggregate',
  'groupBy',
  'update',
  'updateMany',
  'updateManyAndReturn',
  'delete',
  'deleteMany',
]);

type Args = { where?: object; data?: object | object[]; create?: object };

function scope(tenantId: string) {
  return Prisma.defineExtension({
    name: `tenant-scope`,
    query: {
      $allModels: {
        $allOperations({ model, operation, args, query }) {
          if (!TENANT_MODELS.has(model)) return query(args);
          const a = { ...(args as Args) };
          const own = (row: object | undefined) => {
            const given = (row as { tenantId?: unknown } | undefined)?.tenantId;
            if (given !== undefined && given !== tenantId) {
              throw new TenantScopeError(
                `${model}.${operation} writes tenant ${String(given)} through the scope of ${tenantId}`,
              );
            }
            return { ...row, tenantId };
          };
          if (FILTERED.has(operation)) a.where = { ...a.where, tenantId };
          if (operation === 'create') a.data = own(a.data as object);
          if (operation === 'createMany' || operation === 'createManyAndReturn') {
            a.data = (Array.isArray(a.data) ? a.data : [a.data]).map(own);
          }
          if (operation === 'upsert') {
            a.where = { ...a.where, tenantId };
            a.create = own(a.create);
          }
          return query(a as typeof args);
        },
      },
    },
  });
}

export class TenantScopeError extends Error {}

function scopedClient(base: Db, tenantId: string) {
  return base.$extends(scope(tenantId));
}

export type TenantDb = ReturnType<typeof scopedClient>;

// Extending a client is not free; reuse the scoped client of recently seen tenants.
const CACHE_SIZE = 500;
const cache = new Map<string, { base: Db; client: TenantDb }>();

export function forTenant(tenantId: string): TenantDb {
  if (typeof tenantId !== 'string' || !isUuid(tenantId)) {
    throw new TenantScopeError(`forTenant() needs a tenant UUID, got ${JSON.stringify(tenantId)}`);
  }
  const base = db();
  const hit = cache.get(tenantId);
  if (hit && hit.base === base) {
    cache.delete(tenantId); // re-insert: Map order is the LRU order
    cache.set(tenantId, hit);
    return hit.client;
  }
  const client = scopedClient(base, tenantId);
  cache.set(tenantId, { base, client });
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return client;
}
/**
 * The tenant's client inside a transaction, and what an operation context's `db` is: without
 * `$transaction` (Prisma's transaction client keeps one, which would nest a second transaction), since
 * a transaction is a unit of work (./unit-of-work.ts).
 */
export type TenantTx = Omit<Parameters<Parameters<TenantDb['$transaction']>[0]>[0], '$transaction'>;
