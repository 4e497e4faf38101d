// What the audit log records (GET /audit-log; docs/decisions.md "Tenant administration"). Client-safe: the
// dashboard's action filter reads this list as it is.
export const AUDIT_ACTIONS = [
  'api_key.created',
  'api_key.rotated',
  'api_key.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'channel.created',
  'channel.deleted',
  'member.invited',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'member.password_reset',
  'member.password_changed',
  'invitation.revoked',
  'payment_provider.connected',
  'payment_provider.disconnected',
  'resource.calendar_token_rotated',
  /** The tenant's settings changed (the origins allowed to frame its booking pages). */
  'tenant.updated',
  /** A refund, full or partial, ours or made in Stripe's dashboard; details: {amount, currency}. */
  'payment.refunded',
  /**
   * A change made through one of the AI assistant's tools (MCP); the entry names the tool. Under an
   * assistant session every call is recorded, reads included, with the session as the actor.
   */
  'assistant.tool_called',
  'assistant_session.created',
  'assistant_session.revoked',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = [
  'api_key',
  'webhook_endpoint',
  'channel',
  'user',
  'invitation',
  'payment_provider',
  'resource',
  'booking',
  'conversation',
  'tenant',
  'payment',
  'assistant_session',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** Who acted: a person, an API key, or an AI assistant through an assistant session. */
export const AUDIT_ACTOR_TYPES = ['user', 'api_key', 'assistant_session'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];
