import { json, publicRoute } from '@/server/http/route';

/** Serves the OpenAPI document; the route table is passed in to avoid an import cycle. */
export function metaRoutes(document: () => unknown) {
  return [
    publicRoute({
      method: 'GET',
      path: '/openapi.json',
      operationId: 'getOpenApiDocument',
      tag: 'Meta',
      summary: 'This OpenAPI 3.1 document (public, no credentials)',
      responses: { 200: { description: 'The document' } },
      handler: async () => json(200, document()),
    }),
  ];
}
