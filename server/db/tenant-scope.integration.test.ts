import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@/server/lib/ids';
import { createTestTenant, type TestTenant } from '@/test/support/helpers';
import { db } from './client';
import { UnsafeQueryError } from './guards';
import { forTenant, TenantScopeError } from './tenant-scope';

let a: TestTenant;
let b: TestTenant;
beforeAll(async () => {
  [a, b] = await Promise.all([createTestTenant('A'), createTestTenant('B')]);
});

const booking = (tenantId: string) => ({
  id: newId('booking'),
  tenantId,
  customerName: 'Ada',
  startAt: new Date('2030-01-01T10:00:00Z'),
  endAt: new Date('2030-01-01T11:00:00Z'),
});

describe('forTenant', () => {
  it("never reads, updates or deletes another tenant's rows", async () => {
    const theirs = await forTenant(b.tenantId).booking.create({ data: booking(b.tenantId) });
    const mine = forTenant(a.tenantId);
    expect(await mine.booking.findUnique({ where: { id: theirs.id } })).toBeNull();
    expect(await mine.booking.findMany({ where: { id: theirs.id } })).toEqual([]);
    expect(await mine.booking.count()).toBe(0);
    expect((await mine.booking.updateMany({ where: { id: theirs.id }, data: { notes: 'x' } })).count).toBe(0);
    await expect(mine.booking.update({ where: { id: theirs.id }, data: { notes: 'x' } })).rejects.toThrow();
    expect((await mine.booking.deleteMany({ where: { id: theirs.id } })).count).toBe(0);
    expect(
      (await forTenant(b.tenantId).booking.findUniqueOrThrow({ where: { id: theirs.id } })).notes,
    ).toBeNull();
  });

  it('stamps creates with its tenant and refuses a create for another tenant', async () => {
    const created = await forTenant(a.tenantId).booking.create({ data: booking(a.tenantId) });
    expect(created.tenantId).toBe(a.tenantId);
    await expect(forTenant(a.tenantId).booking.create({ data: booking(b.tenantId) })).rejects.toThrow(
      TenantScopeError,
    );
  });

  it('keeps the scope inside interactive transactions', async () => {
    const theirs = await forTenant(b.tenantId).booking.create({ data: booking(b.tenantId) });
    const seen = await forTenant(a.tenantId).$transaction((tx) =>
      tx.booking.findMany({ where: { id: theirs.id } }),
    );
    expect(seen).toEqual([]);
  });

  it('refuses anything but a tenant UUID', () => {
    expect(() => forTenant(undefined as unknown as string)).toThrow(TenantScopeError);
    expect(() => forTenant('')).toThrow(TenantScopeError);
    expect(() => forTenant('not-a-uuid')).toThrow(TenantScopeError);
  });
});

describe('undefined-where guard', () => {
  it('throws instead of matching every row when a filter value is undefined', async () => {
    const tenantId = undefined as unknown as string;
    await expect(db().booking.findMany({ where: { tenantId } })).rejects.toThrow(UnsafeQueryError);
    await expect(db().booking.deleteMany({ where: { tenantId } })).rejects.toThrow(UnsafeQueryError);
    await expect(db().booking.updateMany({ where: {}, data: { notes: 'x' } })).rejects.toThrow(
      UnsafeQueryError,
    );
  });
});
