// Every /api/v1 operation. Add a module's routes here and they are served and documented.
import type { Principal } from '@/server/auth/principal';
import { compileRoutes, handleApiRequest } from '@/server/http/dispatch';
import type { AnyRoute } from '@/server/http/route';
import { buildOpenApiDocument } from './openapi';
import { apiKeyRoutes } from './v1/api-keys';
import { assistantSessionRoutes } from './v1/assistant-sessions';
import { auditLogRoutes } from './v1/audit-log';
import { authRoutes } from './v1/auth';
import { availabilityRoutes } from './v1/availability';
import { bookingRoutes } from './v1/bookings';
import { channelRoutes } from './v1/channels';
import { conversationRoutes } from './v1/conversations';
import { deliveryRoutes } from './v1/deliveries';
import { eventRoutes } from './v1/events';
import { mcpRoutes } from './v1/mcp';
import { memberRoutes } from './v1/members';
import { metaRoutes } from './v1/meta';
import { paymentProviderRoutes, stripeWebhookRoutes } from './v1/payment-providers';
import { paymentRoutes } from './v1/payments';
import { resourceRoutes } from './v1/resources';
import { serviceRoutes } from './v1/services';
import { webhookRoutes } from './v1/webhooks';
import { whatsappRoutes } from './v1/whatsapp';

let openApiDocument: Record<string, unknown> | undefined;
export const routes: AnyRoute[] = [
  ...authRoutes,
  ...apiKeyRoutes,
  ...bookingRoutes,
  ...availabilityRoutes,
  ...resourceRoutes,
  ...serviceRoutes,
  ...paymentRoutes,
  ...paymentProviderRoutes,
  ...stripeWebhookRoutes,
  ...conversationRoutes,
  ...channelRoutes,
  ...whatsappRoutes,
  ...webhookRoutes,
  ...deliveryRoutes,
  ...eventRoutes,
  ...memberRoutes,
  ...auditLogRoutes,
  ...assistantSessionRoutes,
  ...mcpRoutes,
  ...metaRoutes(() => {
    openApiDocument ??= buildOpenApiDocument(routes) as unknown as Record<string, unknown>;
    return openApiDocument;
  }),
];

const table = compileRoutes(routes);

export function handleApi(request: Request): Promise<Response> {
  return handleApiRequest(request, table);
}

/**
 * The dashboard's way to a REST-only route (a streamed file): `/api/dashboard/v1/<path>`, the same
 * pipeline, permission and answers, with the signed-in member's session as the credential.
 */
export function handleDashboardApi(request: Request, session: () => Promise<Principal>): Promise<Response> {
  return handleApiRequest(request, table, { prefix: '/api/dashboard/v1', session });
}
