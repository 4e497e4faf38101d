// cal.com's guard: `where: { tenantId: undefined }` would silently match every row of every tenant.
// Bulk reads and writes with an undefined top-level filter value, or bulk writes with no filter at
// all, throw instead.
import { Prisma } from './generated/client';

const BULK = new Set([
  'findMany',
  'findFirst',
  'findFirstOrThrow',
  'updateMany',
  'deleteMany',
  'count',
  'aggregate',
  'groupBy',
  'updateManyAndReturn',
]);
const BULK_WRITE = new Set(['updateMany', 'deleteMany', 'updateManyAndReturn']);

export class UnsafeQueryError extends Error {}

export const guardUndefinedWhere = Prisma.defineExtension({
  name: 'guard-undefined-where',
  query: {
    $allModels: {
      $allOperations({ model, operation, args, query }) {
        if (BULK.has(operation)) {
          const where = (args as { where?: Record<string, unknown> }).where;
          if (where) {
            for (const [key, value] of Object.entries(where)) {
              if (value === undefined)
                throw new UnsafeQueryError(`${model}.${operation}: where.${key} is undefined`);
            }
          }
          if (BULK_WRITE.has(operation) && (!where || Object.keys(where).length === 0)) {
            throw new UnsafeQueryError(`${model}.${operation} without a where clause`);
          }
        }
        return query(args);
      },
    },
  },
});
