// The route table's promise that a handler cannot answer what its route does not declare is kept
// by the compiler: each `@ts-expect-error` below fails `npm run typecheck` the day it compiles.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { json, noContent, publicRoute } from './route';

const Item = z.object({ id: z.string(), count: z.number() });

const declared = {
  method: 'GET' as const,
  path: '/items',
  operationId: 'items',
  summary: 'items',
  tag: 'Test',
};

describe('typed route responses', () => {
  it('accept a declared status with a body of its schema, and a bodiless declared status', () => {
    const ok = publicRoute({
      ...declared,
      responses: { 200: { description: 'one', schema: Item }, 204: { description: 'none' } },
      handler: async ({ query }) => (query ? noContent() : json(200, { id: 'a', count: 1 })),
    });
    expect(ok.auth).toBe('public');
  });

  it('refuse an undeclared status, a body of the wrong shape, and a body on a bodiless status', () => {
    const routes = [
      publicRoute({
        ...declared,
        responses: { 200: { description: 'one', schema: Item } },
        // @ts-expect-error 201 is not a declared status
        handler: async () => json(201, { id: 'a', count: 1 }),
      }),
      publicRoute({
        ...declared,
        responses: { 200: { description: 'one', schema: Item } },
        // @ts-expect-error count must be a number
        handler: async () => json(200, { id: 'a', count: 'one' }),
      }),
      publicRoute({
        ...declared,
        responses: { 200: { description: 'one', schema: Item } },
        // @ts-expect-error the schema requires count
        handler: async () => json(200, { id: 'a' }),
      }),
      publicRoute({
        ...declared,
        responses: { 204: { description: 'none' } },
        // @ts-expect-error a bodiless status answers no body
        handler: async () => json(204, { id: 'a', count: 1 }),
      }),
    ];
    expect(routes).toHaveLength(4);
  });
});
