// Every /api/v1 operation. Add a module's routes here and they are served and documented.
import { compileRoutes, handleApiRequest } from '@/server/http/dispatch';
import type { AnyRoute } from '@/server/http/route';
import { buildOpenApiDocument } from './openapi';
import { apiKeyRoutes } from './v1/api-keys';
import { auditLogRoutes } from './v1/audit-log';
import { authRoutes } from './v1/auth';
import { availabilityRoutes } from './v1/availability';
import { bookingRoutes } from './v1/bookings';
import { channelRoutes } from './v1/channels';
import { conversationRoutes } from './v1/conversations';
import { deliveryRoutes } from './v1/deliveries';
import { eventRoutes } from './v1/events';
import { memberRoutes } from './v1/members';
import { metaRoutes } from './v1/meta';
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
  ...conversationRoutes,
  ...channelRoutes,
  ...whatsappRoutes,
  ...webhookRoutes,
  ...deliveryRoutes,
  ...eventRoutes,
  ...memberRoutes,
  ...auditLogRoutes,
  ...metaRoutes(() => {
    openApiDocument ??= buildOpenApiDocument(routes) as unknown as Record<string, unknown>;
    return openApiDocument;
  }),
];

const table = compileRoutes(routes);

export function handleApi(request: Request): Promise<Response> {
  return handleApiRequest(request, table);
}
