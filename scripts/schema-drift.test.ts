import { expect, it } from 'vitest';
import { pendingSchemaSql } from './lib/schema-diff';

// prisma/schema.prisma and prisma/migrations must describe the same database: a schema change
// without its migration (npm run db:migration:create -- <name>) fails here.
it('has a migration for every change in prisma/schema.prisma', async () => {
  expect(await pendingSchemaSql()).toBe('');
}, 120_000);
