import { listOf } from '@/server/api/schemas/common';
import {
  createService,
  deleteService,
  getService,
  listServices,
  updateService,
} from '@/server/domain/services/manage-services';
import { CreateServiceInput, Service, UpdateServiceInput } from '@/server/domain/services/schemas';
import { json, noContent, tenantRoute } from '@/server/http/route';
import { ListQuery } from '@/server/lib/schemas';

const tag = 'Services';

export const serviceRoutes = [
  tenantRoute({
    method: 'GET',
    path: '/services',
    operationId: 'listServices',
    tag,
    permission: 'services.read',
    summary: "List the tenant's services",
    query: ListQuery,
    responses: { 200: { description: 'One page, newest first', schema: listOf(Service, 'ServiceList') } },
    handler: async ({ ctx, query }) => json(200, await listServices(ctx, query)),
  }),
  tenantRoute({
    method: 'POST',
    path: '/services',
    operationId: 'createService',
    tag,
    permission: 'services.write',
    summary: 'Create a service',
    description:
      'resource_ids must name resources of this tenant; payment other than none needs a price (deposit also a ' +
      'deposit_amount up to the price); each reminder names a WhatsApp channel of this tenant. 422 names each problem.',
    body: CreateServiceInput,
    responses: { 201: { description: 'Created', schema: Service } },
    handler: async ({ ctx, body }) => json(201, await createService(ctx, body)),
  }),
  tenantRoute({
    method: 'GET',
    path: '/services/{id}',
    operationId: 'getService',
    tag,
    permission: 'services.read',
    summary: 'Read a service',
    responses: { 200: { description: 'The service', schema: Service } },
    handler: async ({ ctx, params }) => json(200, await getService(ctx, { id: params.id })),
  }),
  tenantRoute({
    method: 'PATCH',
    path: '/services/{id}',
    operationId: 'updateService',
    tag,
    permission: 'services.write',
    summary: 'Change a service',
    description:
      'Only the fields sent change (null clears price, deposit_amount or slot_interval_minutes); the same rules as ' +
      'creation hold for the result. Existing bookings keep their times and blocked intervals.',
    body: UpdateServiceInput,
    responses: { 200: { description: 'The updated service', schema: Service } },
    handler: async ({ ctx, params, body }) =>
      json(200, await updateService(ctx, { id: params.id, changes: body })),
  }),
  tenantRoute({
    method: 'DELETE',
    path: '/services/{id}',
    operationId: 'deleteService',
    tag,
    permission: 'services.write',
    summary: 'Delete a service',
    description: 'Its bookings stay (with service_id as a reference) and keep their resource blocked.',
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ ctx, params }) => {
      await deleteService(ctx, { id: params.id });
      return noContent();
    },
  }),
];
