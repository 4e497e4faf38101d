import { Tenant, UpdateTenantInput } from '@/server/domain/tenant-settings/schemas';
import { getTenant, updateTenant } from '@/server/domain/tenant-settings/tenant-settings';
import { json, tenantRoute } from '@/server/http/route';

const tag = 'Tenant';

export const tenantRoutes = [
  tenantRoute({
    method: 'GET',
    path: '/tenant',
    operationId: 'getTenant',
    tag,
    permission: 'tenant.read',
    summary: 'Read the tenant’s settings',
    description: 'The tenant of X-Tenant-ID: its name and the origins that may frame its booking pages.',
    responses: { 200: { description: 'The tenant', schema: Tenant } },
    handler: async ({ ctx }) => json(200, await getTenant(ctx)),
  }),
  tenantRoute({
    method: 'PATCH',
    path: '/tenant',
    operationId: 'updateTenant',
    tag,
    permission: 'tenant.write',
    summary: 'Change the tenant’s settings',
    description:
      'booking_page.frame_origins: the origins (each https://host[:port], exactly as a browser writes it: ' +
      'lower-case host, no default port, no path; anything else is 422) allowed to show the booking page ' +
      '/book/{service_id} and the manage page /b/{token} in a frame. The pages’ Content-Security-Policy ' +
      'frame-ancestors names exactly these (X-Frame-Options is then left out); [] (the default) forbids every ' +
      'frame. Repeated origins are kept once. Audited as tenant.updated.',
    body: UpdateTenantInput,
    responses: { 200: { description: 'The updated tenant', schema: Tenant } },
    handler: async ({ ctx, body }) => json(200, await updateTenant(ctx, body)),
  }),
];
