// Password reset links (docs/decisions.md "Tenant administration"): an admin issues a one-time link (1 h) for a member; using it
// sets a new password and ends every session of that person (refresh tokens, dashboard sessions, and
// the access tokens issued before it).
import { db } from '@/server/db/client';
import type { RawQueryable } from '@/server/db/typed-sql';
import { type CrossTenantUnit, transaction, type UnitOfWork } from '@/server/db/unit-of-work';
import { recordAudit } from '@/server/domain/audit/record-audit';
import { type OperationContext, operationContext } from '@/server/domain/context';
import { Errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { hashPassword } from '@/server/security/hashing';
import { lockUser } from './add-membership';
import { linkNoLongerValid } from './invitations';
import { dashboardLink, hashLinkToken, newLinkToken } from './links';
import { membershipsOfUser } from './sql/memberships-of-user';
import { revokeRefreshTokensOfUser } from './sql/revoke-refresh-tokens-of-user';

export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;

/**
 * A reset link for a member of this tenant. A person who also belongs to another tenant is refused
 * (403): their password guards that tenant too, and this tenant's admins do not speak for it.
 */
export function issuePasswordReset(ctx: OperationContext, input: { user_id: string }) {
  return transaction(ctx, async (tx) => {
    const db = await tx.orm();
    const membership = await db.membership.findFirst({ where: { userId: input.user_id } });
    if (!membership) throw Errors.notFound('Member');
    // Across tenants on purpose: whether the password guards other tenants as well.
    const tenants = await membershipsOfUser.rows(tx, input.user_id);
    if (tenants.some((m) => m.tenant_id !== ctx.tenantId))
      throw Errors.forbidden(
        'This person also belongs to another tenant; they can change their password themselves, or ask the operator',
      );
    const { token, tokenHash } = newLinkToken();
    const row = await db.passwordReset.create({
      data: {
        id: newId('passwordReset'),
        tenantId: ctx.tenantId,
        userId: input.user_id,
        tokenHash,
        expiresAt: new Date(Date.now() + PASSWORD_RESET_TTL_MS),
      },
    });
    await recordAudit(tx, ctx, {
      action: 'member.password_reset',
      target: { type: 'user', id: input.user_id },
    });
    return { url: dashboardLink('/reset-password', token), expires_at: row.expiresAt.toISOString() };
  });
}

/**
 * Whether the link's person belongs to the tenant that issued it and to no other: checked when the
 * link is issued, and again when it is shown and used (issue 21, finding 2), since a person who
 * joined another tenant in between has a password that guards that tenant too. Across tenants on
 * purpose.
 */
async function onlyInIssuingTenant(
  client: UnitOfWork | CrossTenantUnit | RawQueryable,
  row: { userId: string; tenantId: string },
): Promise<boolean> {
  const tenants = await membershipsOfUser.rows(client, row.userId);
  return tenants.length === 1 && tenants[0].tenant_id === row.tenantId;
}

async function findUsable(token: string) {
  const row = await db().passwordReset.findUnique({
    where: { tokenHash: hashLinkToken(token) },
    include: { user: true },
  });
  if (!row || row.usedAt || row.expiresAt <= new Date()) return null;
  return (await onlyInIssuingTenant(db(), row)) ? row : null;
}

/** What the /reset-password page shows for a token. */
export async function lookupPasswordReset(token: string) {
  const row = await findUsable(token);
  return row ? { valid: true as const, email: row.user.email } : { valid: false as const };
}

/**
 * Sets the new password, spends the link and ends every session of the person, in one transaction.
 * The person's row is locked first (as adding a membership does), then the link is claimed, then the
 * memberships are checked again, and only then is the new password hashed: parallel uses of one link
 * hash once, and a link whose person joined another tenant since it was issued is refused.
 */
export async function completePasswordReset(input: { token: string; password: string; ip: string }) {
  const row = await findUsable(input.token);
  if (!row) throw linkNoLongerValid('password reset');
  const ctx = operationContext(row.tenantId, { type: 'user', id: row.userId }, input.ip);
  await transaction(ctx, async (tx) => {
    const db = await tx.orm();
    await lockUser(tx, row.userId);
    const spent = await db.passwordReset.updateMany({
      where: { id: row.id, usedAt: null, expiresAt: { gt: new Date() } },
      data: { usedAt: new Date() },
    });
    if (spent.count === 0 || !(await onlyInIssuingTenant(tx, row))) throw linkNoLongerValid('password reset');
    const passwordHash = await hashPassword(input.password);
    // Access tokens issued before now are refused from the next request (server/auth/principal.ts).
    await db.user.update({ where: { id: row.userId }, data: { passwordHash, tokensValidAfter: new Date() } });
    // Every tenant's refresh tokens of this person, not only this tenant's: the password is theirs.
    await revokeRefreshTokensOfUser.execute(tx, row.userId);
    await db.webSession.updateMany({
      where: { userId: row.userId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    await recordAudit(tx, ctx, {
      action: 'member.password_changed',
      target: { type: 'user', id: row.userId },
    });
  });
  return { email: row.user.email };
}
