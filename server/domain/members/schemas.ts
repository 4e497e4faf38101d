// Tenant administration (docs/decisions.md "Tenant administration"): members, invitations and password reset links.
import { z } from 'zod';
import { LIMITS } from '@/server/client-safe/limits';
import { ROLES } from '@/server/client-safe/statuses';
import { Timestamp } from '@/server/lib/schemas';

export const Role = z.enum(ROLES);

/** The password rule everywhere a person chooses one (CLI, invitation, reset): 8..1024 characters. */
export const NewPassword = z
  .string()
  .min(LIMITS.passwordMin, `must be at least ${LIMITS.passwordMin} characters`)
  .max(LIMITS.passwordMax, `must be at most ${LIMITS.passwordMax} characters`);

export const Member = z.object({
  user_id: z.string().meta({ example: 'usr_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  email: z.string(),
  name: z.string(),
  role: Role,
  created_at: Timestamp.meta({ description: 'When the person joined this tenant' }),
});
export type Member = z.output<typeof Member>;

export const MemberList = z.object({ data: z.array(Member) });

export const ChangeRoleInput = z.object({ role: Role });

export const CreateInvitationInput = z.object({
  email: z.string().trim().toLowerCase().email().max(LIMITS.email),
  role: Role,
});
export type CreateInvitationInput = z.output<typeof CreateInvitationInput>;

export const Invitation = z.object({
  id: z.string().meta({ example: 'inv_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  email: z.string(),
  role: Role,
  created_at: Timestamp,
  expires_at: Timestamp,
});
export type Invitation = z.output<typeof Invitation>;

export const InvitationList = z.object({ data: z.array(Invitation) });

export const InvitationWithLink = z.object({
  id: z.string(),
  email: z.string(),
  role: Role,
  url: z.string().meta({
    description: 'The one-time link to /invite/<token> in the dashboard; shown only in this response',
  }),
  expires_at: Timestamp,
});

export const PasswordResetLink = z.object({
  url: z.string().meta({
    description: 'The one-time link to /reset-password/<token> in the dashboard; shown only in this response',
  }),
  expires_at: Timestamp,
});

/** A link token as it arrives from a page (opaque; an unknown one is simply not valid). */
export const LinkToken = z.string().min(1).max(200);

export const AcceptInvitationInput = z.object({
  token: LinkToken,
  /** A new person's name; ignored for an existing user. */
  name: z.string().trim().min(1).max(LIMITS.personName).optional(),
  password: z.string().min(1).max(LIMITS.passwordMax),
});

export const CompletePasswordResetInput = z.object({ token: LinkToken, password: NewPassword });
