import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileRoutes, handleApiRequest } from './dispatch';
import { json, publicRoute } from './route';

// The pipeline's last line of defence: anything unexpected becomes a bare 500 problem.
const table = compileRoutes([
  publicRoute({
    method: 'GET',
    path: '/explode',
    operationId: 'explode',
    tag: 'Test',
    summary: 'throws',
    responses: { 200: { description: 'never' } },
    handler: async () => {
      throw new Error('relation "secrets" does not exist: SELECT key FROM secrets WHERE tenant_id = $1');
    },
  }),
  publicRoute({
    method: 'GET',
    path: '/items/{id}',
    operationId: 'item',
    tag: 'Test',
    summary: 'echo',
    responses: { 200: { description: 'the id', schema: z.object({ id: z.string() }) } },
    handler: async ({ params }) => json(200, { id: params.id }),
  }),
]);

describe('handleApiRequest', () => {
  it('answers an unexpected error with internal_error and the request id only', async () => {
    const res = await handleApiRequest(
      new Request('http://x/api/v1/explode', { headers: { 'X-Request-Id': 'trace-1' } }),
      table,
    );
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ status: 500, code: 'internal_error', request_id: 'trace-1' });
    expect(text).not.toMatch(/SELECT|secrets|at .*\.ts|Error:/);
  });

  it('decodes path parameters and ignores a trailing slash', async () => {
    const res = await handleApiRequest(new Request('http://x/api/v1/items/a%20b/'), table);
    expect(await res.json()).toEqual({ id: 'a b' });
  });

  it('answers a malformed percent-escape in a path parameter with 404, not 500', async () => {
    const res = await handleApiRequest(new Request('http://x/api/v1/items/%E0%A4%A'), table);
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe('not_found');
  });
});
