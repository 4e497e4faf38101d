// The audit log (docs/decisions.md "Tenant administration"): read-only; nothing in the API changes or deletes an entry.
import { listOf } from '@/server/api/schemas/common';
import { listAuditLog } from '@/server/domain/audit/list-audit-log';
import { AuditLogEntry, AuditLogQuery } from '@/server/domain/audit/schemas';
import { json, tenantRoute } from '@/server/http/route';

export const auditLogRoutes = [
  tenantRoute({
    method: 'GET',
    path: '/audit-log',
    operationId: 'listAuditLog',
    tag: 'Audit log',
    permission: 'audit_log.read',
    summary: 'Who changed what: keys, webhook endpoints, channels, members, invitations, secrets',
    description:
      'Every change a person (actor type user) or an API key (api_key) makes to API keys, webhook endpoints, ' +
      'channels, members, invitations, payment providers (Stripe connected or disconnected) and secrets is ' +
      'recorded in the same transaction as the change, and so is every change an AI assistant makes through ' +
      'its tools (POST /mcp: action assistant.tool_called, target the booking or conversation, tool the ' +
      'tool’s name, actor the credential the assistant used), and every refund of a payment (action ' +
      'payment.refunded, target the payment, details {amount, currency}; a refund made in Stripe’s dashboard ' +
      'has the actor {type: "stripe"}, one the service made itself, of a payment that came after its booking ' +
      'expired and its slot was taken, {type: "system"}): a ' +
      'change that fails leaves no entry, and an entry never exists without its change. Entries hold ids ' +
      '(actor, target) and, in details, values that describe the change (a refund’s amount), never a secret, and cannot be changed or deleted through any interface (the ' +
      'database refuses it too). They are kept indefinitely: event retention does not touch them. Changes ' +
      'the operator makes with the CLI (tenant and first admin) are not made by the tenant and are not ' +
      'recorded. Newest first.',
    query: AuditLogQuery,
    responses: { 200: { description: 'One page', schema: listOf(AuditLogEntry, 'AuditLogPage') } },
    handler: async ({ ctx, query }) => json(200, await listAuditLog(ctx, query)),
  }),
];
