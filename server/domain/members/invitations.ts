// Invitations (docs/decisions.md "Tenant administration"): a one-time link, valid 7 days, that adds a membership. Only the token's
// hash is stored; the link is shown once, to the admin who creates it, to pass on.
import { verifyUserPassword } from '@/server/auth/sessions';
import { db } from '@/server/db/client';
import { Prisma } from '@/server/db/generated/client';
import { paginate } from '@/server/db/pagination';
import { transaction } from '@/server/db/unit-of-work';
import { recordAudit } from '@/server/domain/audit/record-audit';
import { type OperationContext, operationContext } from '@/server/domain/context';
import { AppError, Errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import type { PageInput } from '@/server/lib/schemas';
import { hashPassword } from '@/server/security/hashing';
import { addMembership } from './add-membership';
import { dashboardLink, hashLinkToken, newLinkToken } from './links';
import { type CreateInvitationInput, type Invitation, NewPassword } from './schemas';

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const pending = () => ({ acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } });

export const linkNoLongerValid = (what: string) =>
  new AppError('not_found', `This ${what} link is no longer valid (used, revoked or expired)`);

export function createInvitation(ctx: OperationContext, input: CreateInvitationInput) {
  return transaction(ctx, async (tx) => {
    const db = await tx.orm();
    const member = await db.membership.findFirst({ where: { user: { email: input.email } } });
    if (member) throw new AppError('already_member', `${input.email} is already a member of this tenant`);
    const { token, tokenHash } = newLinkToken();
    const row = await db.invitation.create({
      data: {
        id: newId('invitation'),
        tenantId: ctx.tenantId,
        email: input.email,
        role: input.role,
        tokenHash,
        invitedBy: ctx.actor.type === 'system' ? 'system' : ctx.actor.id,
        expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
      },
    });
    await recordAudit(tx, ctx, { action: 'member.invited', target: { type: 'invitation', id: row.id } });
    return {
      id: row.id,
      email: row.email,
      role: row.role,
      url: dashboardLink('/invite', token),
      expires_at: row.expiresAt.toISOString(),
    };
  });
}

/** Invitations not yet used, revoked or expired, newest first (never their token). */
export function listInvitations(ctx: OperationContext, input: PageInput) {
  return paginate(
    input,
    ({ after, take }) =>
      ctx.db.invitation.findMany({ where: { ...after, ...pending() }, orderBy: { id: 'desc' }, take }),
    (row): Invitation => ({
      id: row.id,
      email: row.email,
      role: row.role,
      created_at: row.createdAt.toISOString(),
      expires_at: row.expiresAt.toISOString(),
    }),
  );
}

/** The link stops working at once; an invitation already used, revoked or expired is not found. */
export function revokeInvitation(ctx: OperationContext, input: { id: string }): Promise<void> {
  return transaction(ctx, async (tx) => {
    const { count } = await (await tx.orm()).invitation.updateMany({
      where: { id: input.id, ...pending() },
      data: { revokedAt: new Date() },
    });
    if (count === 0) throw Errors.notFound('Invitation');
    await recordAudit(tx, ctx, {
      action: 'invitation.revoked',
      target: { type: 'invitation', id: input.id },
    });
  });
}

/** What the /invite page shows for a token (looked up by its hash across tenants: the token names it). */
export async function lookupInvitation(token: string) {
  const row = await db().invitation.findUnique({ where: { tokenHash: hashLinkToken(token) } });
  if (!row || row.acceptedAt || row.revokedAt || row.expiresAt <= new Date())
    return { valid: false as const };
  const [tenant, user] = await Promise.all([
    db().tenant.findUnique({ where: { id: row.tenantId } }),
    db().user.findUnique({ where: { email: row.email } }),
  ]);
  return {
    valid: true as const,
    email: row.email,
    role: row.role,
    tenant_name: tenant?.name ?? '',
    existing_user: user !== null,
  };
}

/**
 * Uses an invitation: a new person sets their name and password (argon2id, the usual length rule);
 * an existing user proves it is them with their password (counted and rate limited like a login).
 * The link is spent and the membership added in one transaction with `member.joined`. The link is
 * claimed before a new password is hashed: of parallel uses of one link, one hashes and the others
 * wait for its row lock, then find the link spent (issue 21, finding 5).
 */
export async function acceptInvitation(input: {
  token: string;
  name?: string;
  password: string;
  ip: string;
}) {
  const invitation = await db().invitation.findUnique({ where: { tokenHash: hashLinkToken(input.token) } });
  if (!invitation || invitation.acceptedAt || invitation.revokedAt || invitation.expiresAt <= new Date())
    throw linkNoLongerValid('invitation');
  const existing = await db().user.findUnique({ where: { email: invitation.email } });
  if (existing) {
    await verifyUserPassword(existing, { password: input.password, ip: input.ip });
  } else {
    const errors = [
      ...(input.name ? [] : [{ path: 'name', message: 'Required' }]),
      ...(NewPassword.safeParse(input.password).error?.issues.map((i) => ({
        path: 'password',
        message: i.message,
      })) ?? []),
    ];
    if (errors.length > 0) throw Errors.validation(errors);
  }
  const userId = existing?.id ?? newId('user');
  const ctx = operationContext(invitation.tenantId, { type: 'user', id: userId }, input.ip);
  try {
    await transaction(ctx, async (tx) => {
      const db = await tx.orm();
      const claimed = await db.invitation.updateMany({
        where: { id: invitation.id, ...pending() },
        data: { acceptedAt: new Date(), acceptedBy: userId },
      });
      if (claimed.count === 0) throw linkNoLongerValid('invitation');
      if (!existing) {
        const passwordHash = await hashPassword(input.password);
        await db.user.create({
          data: { id: userId, email: invitation.email, name: input.name as string, passwordHash },
        });
      }
      const already = await db.membership.findFirst({ where: { userId } });
      if (!already) await addMembership(tx, { tenantId: invitation.tenantId, userId, role: invitation.role });
      await recordAudit(tx, ctx, { action: 'member.joined', target: { type: 'user', id: userId } });
    });
  } catch (error) {
    // Someone signed up with this email between the check and the insert: the link stays unused.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')
      throw new AppError('already_member', 'An account with this email was just created: sign in to accept');
    throw error;
  }
  return { email: invitation.email, tenant_id: invitation.tenantId };
}
