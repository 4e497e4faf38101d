import { z } from 'zod';
import { json, publicRoute } from '@/server/http/route';

/** Serves the OpenAPI document; the route table is passed in to avoid an import cycle. */
export function metaRoutes(document: () => Record<string, unknown>) {
  return [
    publicRoute({
      method: 'GET',
      path: '/openapi.json',
      operationId: 'getOpenApiDocument',
      tag: 'Meta',
      summary: 'This OpenAPI 3.1 document (public, no credentials)',
      responses: {
        200: { description: 'The document', schema: z.record(z.string(), z.unknown()) },
      },
      handler: async () => json(200, document()),
    }),
  ];
}
