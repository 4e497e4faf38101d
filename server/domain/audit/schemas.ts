// The audit log (docs/decisions.md "Tenant administration"): its list query and entries.
import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES, AUDIT_TARGET_TYPES } from '@/server/client-safe/audit-actions';
import { ListQuery, Timestamp } from '@/server/lib/schemas';

export const AuditLogQuery = ListQuery.extend({
  action: z.enum(AUDIT_ACTIONS).optional().meta({ description: 'Only entries of this action' }),
  actor_id: z
    .string()
    .regex(
      /^(usr|key|asn)_[0-9A-Z]{26}$/,
      'A user id (usr_…), API key id (key_…) or assistant session id (asn_…)',
    )
    .optional()
    .meta({
      description: 'Only entries of this person (usr_…), API key (key_…) or assistant session (asn_…)',
    }),
  created_after: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'Only entries recorded at or after this time' }),
  created_before: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'Only entries recorded before this time' }),
});
export type AuditLogQuery = z.output<typeof AuditLogQuery>;

export const AuditLogEntry = z.object({
  id: z.string().meta({ example: 'aud_01JD3XJ5T1S9Y6W8ZK4M2N7P0Q' }),
  action: z.enum(AUDIT_ACTIONS),
  actor: z
    .union([
      z.object({
        type: z.enum(AUDIT_ACTOR_TYPES).meta({
          description:
            'user (a person), api_key, or assistant_session (an AI assistant acting for one conversation’s ' +
            'contact through POST /conversations/{id}/assistant-sessions)',
        }),
        id: z.string().meta({ description: 'usr_…, key_… or asn_…' }),
      }),
      z.object({
        type: z.enum(['stripe', 'system']).meta({
          description:
            'stripe: a refund made in Stripe’s dashboard (or its API), reported by its webhook; system: a refund ' +
            'the service made itself (a payment that arrived after its booking expired and its slot was taken)',
        }),
      }),
    ])
    .meta({ description: 'Who made the change' }),
  target: z.object({ type: z.enum(AUDIT_TARGET_TYPES), id: z.string() }),
  tool: z.string().nullable().meta({
    description:
      'The AI assistant’s tool (MCP) that made the change (action assistant.tool_called); null otherwise',
  }),
  details: z.record(z.string(), z.union([z.string(), z.number()])).meta({
    description:
      'What the entry adds about the change, by value; never a secret. payment.refunded: {amount, currency} ' +
      '(the refund’s amount in minor units); {} for the other actions',
    example: { amount: 1500, currency: 'eur' },
  }),
  ip: z.string().nullable().meta({
    description: 'The client address of the request, as the trusted proxy in front of the service reports it',
  }),
  created_at: Timestamp,
});
export type AuditLogEntry = z.output<typeof AuditLogEntry>;
