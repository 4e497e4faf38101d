// Tenant administration (docs/decisions.md "Tenant administration"): members, invitations and password reset links. Admin only.
import { listOf } from '@/server/api/schemas/common';
import { changeMemberRole } from '@/server/domain/members/change-member-role';
import { createInvitation, listInvitations, revokeInvitation } from '@/server/domain/members/invitations';
import { listMembers } from '@/server/domain/members/list-members';
import { issuePasswordReset } from '@/server/domain/members/password-resets';
import { removeMember } from '@/server/domain/members/remove-member';
import {
  ChangeRoleInput,
  CreateInvitationInput,
  Invitation,
  InvitationWithLink,
  Member,
  MemberList,
  PasswordResetLink,
} from '@/server/domain/members/schemas';
import { json, noContent, tenantRoute } from '@/server/http/route';
import { ListQuery } from '@/server/lib/schemas';

const tag = 'Members';

export const memberRoutes = [
  tenantRoute({
    method: 'GET',
    path: '/members',
    operationId: 'listMembers',
    tag,
    permission: 'members.read',
    summary: 'List the members of the tenant',
    description: 'Everyone in the tenant with their role, in the order they joined (all of them: no pages).',
    responses: { 200: { description: 'The members', schema: MemberList } },
    handler: async ({ ctx }) => json(200, await listMembers(ctx)),
  }),
  tenantRoute({
    method: 'PATCH',
    path: '/members/{id}',
    operationId: 'changeMemberRole',
    tag,
    permission: 'members.write',
    summary: "Change a member's role (`{id}` is the user id)",
    description:
      'Takes effect on the next request of that person (access tokens re-read the membership). Demoting ' +
      "the tenant's last admin is refused with 409 last_admin; two admins demoting each other at the same " +
      'time are serialised, so the tenant always keeps one. Recorded as member.role_changed.',
    body: ChangeRoleInput,
    responses: { 200: { description: 'The member', schema: Member } },
    errors: [404, 409],
    handler: async ({ ctx, params, body }) =>
      json(200, await changeMemberRole(ctx, { user_id: params.id, role: body.role })),
  }),
  tenantRoute({
    method: 'DELETE',
    path: '/members/{id}',
    operationId: 'removeMember',
    tag,
    permission: 'members.write',
    summary: 'Remove a member from the tenant (`{id}` is the user id)',
    description:
      "Removing the tenant's last admin is refused with 409 last_admin. The person's refresh tokens for " +
      'this tenant stop working at once, their access tokens on their next request, and their dashboard ' +
      'loses the tenant at once (its sessions end when they belong to no other tenant). The user record ' +
      'stays: it may belong to other tenants. Recorded as member.removed.',
    responses: { 204: { description: 'Removed' } },
    errors: [404, 409],
    handler: async ({ ctx, params }) => {
      await removeMember(ctx, { user_id: params.id });
      return noContent();
    },
  }),
  tenantRoute({
    method: 'POST',
    path: '/members/{id}/password-reset',
    operationId: 'createPasswordReset',
    secretResponse: true,
    tag,
    permission: 'members.write',
    summary: 'Issue a one-time password reset link for a member',
    description:
      'The link (valid 1 hour, usable once; only a hash of its token is stored) opens /reset-password in ' +
      'the dashboard, where a new password is set; that ends every session of the person. Pass it on ' +
      'yourself (no e-mail is sent). A person who also belongs to another tenant is refused with 403: ' +
      'their password guards that tenant too. For the same reason the link stops working when its person ' +
      'joins another tenant (an invitation accepted, or the operator adding them): it is spent then, and ' +
      "checked again when used. Recorded as member.password_reset (the link's use as " +
      'member.password_changed).',
    responses: { 201: { description: 'The link (shown once)', schema: PasswordResetLink } },
    errors: [403, 404],
    handler: async ({ ctx, params }) => json(201, await issuePasswordReset(ctx, { user_id: params.id })),
  }),
  tenantRoute({
    method: 'POST',
    path: '/invitations',
    operationId: 'createInvitation',
    secretResponse: true,
    tag,
    permission: 'members.write',
    summary: 'Invite someone by a one-time link',
    description:
      'The url opens /invite/<token> in the dashboard (valid 7 days, usable once; only a hash of the token ' +
      'is stored; shown only in this answer). A new person sets their name and password there, an existing ' +
      'user signs in with theirs; either way the membership is added with this role and they are signed in. ' +
      'An email that is already a member gets 409 already_member. Recorded as member.invited (the use as ' +
      'member.joined).',
    body: CreateInvitationInput,
    responses: { 201: { description: 'The invitation and its link', schema: InvitationWithLink } },
    errors: [409],
    handler: async ({ ctx, body }) => json(201, await createInvitation(ctx, body)),
  }),
  tenantRoute({
    method: 'GET',
    path: '/invitations',
    operationId: 'listInvitations',
    tag,
    permission: 'members.read',
    summary: 'List pending invitations (never their link)',
    query: ListQuery,
    responses: { 200: { description: 'One page', schema: listOf(Invitation, 'InvitationList') } },
    handler: async ({ ctx, query }) => json(200, await listInvitations(ctx, query)),
  }),
  tenantRoute({
    method: 'DELETE',
    path: '/invitations/{id}',
    operationId: 'revokeInvitation',
    tag,
    permission: 'members.write',
    summary: 'Revoke a pending invitation',
    description: 'Its link stops working at once. Recorded as invitation.revoked.',
    responses: { 204: { description: 'Revoked' } },
    errors: [404],
    handler: async ({ ctx, params }) => {
      await revokeInvitation(ctx, { id: params.id });
      return noContent();
    },
  }),
];
