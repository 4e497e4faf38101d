// Operator actions (CLI and demo seed): tenants and users across tenants. A person has one user
// record and may belong to several tenants: naming an existing email adds a membership, but only
// with that user's current password, so nobody can take over an account by knowing its email.
import { db } from '@/server/db/client';
import { Prisma } from '@/server/db/generated/client';
import type { Role } from '@/server/db/generated/enums';
import { type CrossTenantUnit, crossTenant, transaction } from '@/server/db/unit-of-work';
import { newId } from '@/server/lib/ids';
import { hashPassword, verifyPassword } from '@/server/security/hashing';
import { issueApiKey } from './api-keys/issue-api-key';
import { addMembership } from './members/add-membership';

export class DomainConflictError extends Error {}

/** Operator actions span tenants: a person is one user in every tenant. */
const OPERATOR = crossTenant('tenants and users across tenants (operator CLI and seed)');

async function findOrCreateUser(
  unit: CrossTenantUnit,
  input: { email: string; password: string; name?: string },
) {
  const tx = await unit.orm();
  const email = input.email.trim().toLowerCase();
  const existing = await tx.user.findUnique({ where: { email } });
  if (existing) {
    if (!(await verifyPassword(existing.passwordHash, input.password))) {
      throw new DomainConflictError(`A user with email ${email} already exists (with another password)`);
    }
    return existing;
  }
  return tx.user.create({
    data: {
      id: newId('user'),
      email,
      name: input.name ?? email.split('@')[0],
      passwordHash: await hashPassword(input.password),
    },
  });
}

export async function createTenantWithAdmin(input: {
  name: string;
  adminEmail: string;
  adminPassword: string;
  adminName?: string;
}) {
  return transaction(OPERATOR, async (unit) => {
    const tx = await unit.orm();
    const tenant = await tx.tenant.create({ data: { name: input.name } });
    const user = await findOrCreateUser(unit, {
      email: input.adminEmail,
      password: input.adminPassword,
      name: input.adminName,
    });
    await addMembership(unit, { tenantId: tenant.id, userId: user.id, role: 'admin' });
    const apiKey = await issueApiKey(tx, { tenantId: tenant.id, name: 'Initial key' });
    return { tenantId: tenant.id, userId: user.id, apiKey: apiKey.key, apiKeyId: apiKey.id };
  });
}

export async function createUser(input: {
  tenantId: string;
  email: string;
  password: string;
  role: Role;
  name?: string;
}) {
  const tenant = await db().tenant.findUnique({ where: { id: input.tenantId } });
  if (!tenant) throw new DomainConflictError(`No tenant ${input.tenantId}`);
  try {
    return await transaction(OPERATOR, async (unit) => {
      const user = await findOrCreateUser(unit, input);
      await addMembership(unit, { tenantId: input.tenantId, userId: user.id, role: input.role });
      return { userId: user.id };
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new DomainConflictError(`${input.email} is already a member of tenant ${input.tenantId}`);
    }
    throw error;
  }
}
