import { generateApiKey } from '../auth/api-key-format';
import { db } from '../db/client';
import { Prisma } from '../db/generated/client';
import type { Role } from '../db/generated/enums';
import { newId } from '../lib/ids';
import { hashPassword, sha256Hex } from '../security/hashing';

/** Operator actions (CLI and demo seed): tenants and users across tenants. */
export class DomainConflictError extends Error {}

export async function createTenantWithAdmin(input: {
  name: string;
  adminEmail: string;
  adminPassword: string;
  adminName?: string;
}) {
  const email = input.adminEmail.trim().toLowerCase();
  const passwordHash = await hashPassword(input.adminPassword);
  const { key, prefix } = generateApiKey();
  return db().$transaction(async (tx) => {
    const tenant = await tx.tenant.create({ data: { name: input.name } });
    // An existing user (by email) becomes admin of the new tenant; the password must match theirs.
    let user = await tx.user.findUnique({ where: { email } });
    if (!user) {
      user = await tx.user.create({
        data: { id: newId('user'), email, name: input.adminName ?? email.split('@')[0], passwordHash },
      });
    }
    await tx.membership.create({ data: { tenantId: tenant.id, userId: user.id, role: 'admin' } });
    const apiKey = await tx.apiKey.create({
      data: { id: newId('apiKey'), tenantId: tenant.id, name: 'Initial key', prefix, secretHash: sha256Hex(key) },
    });
    return { tenantId: tenant.id, userId: user.id, apiKey: key, apiKeyId: apiKey.id };
  });
}

export async function createUser(input: { tenantId: string; email: string; password: string; role: Role; name?: string }) {
  const email = input.email.trim().toLowerCase();
  const tenant = await db().tenant.findUnique({ where: { id: input.tenantId } });
  if (!tenant) throw new DomainConflictError(`No tenant ${input.tenantId}`);
  const passwordHash = await hashPassword(input.password);
  try {
    return await db().$transaction(async (tx) => {
      const user = await tx.user.create({
        data: { id: newId('user'), email, name: input.name ?? email.split('@')[0], passwordHash },
      });
      await tx.membership.create({ data: { tenantId: input.tenantId, userId: user.id, role: input.role } });
      return { userId: user.id };
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new DomainConflictError(`A user with email ${email} already exists`);
    }
    throw error;
  }
}
