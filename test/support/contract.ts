// Every REST answer the integration suite sees is checked against the route's declared response
// schema (or the problem schema for errors), so a handler whose body drifts from what the OpenAPI
// document promises fails a test: undeclared statuses, missing or mistyped fields, extra fields.
import type { z } from 'zod';
import { routes } from '@/server/api/routes';
import { Problem } from '@/server/api/schemas/common';
import { compileRoutes } from '@/server/http/dispatch';

const table = compileRoutes(routes);

export function assertResponseMatchesContract(
  method: string,
  path: string,
  status: number,
  contentType: string | null,
  body: unknown,
): void {
  const where = `${method} ${path} → ${status}`;
  if (contentType?.startsWith('application/problem+json') || status >= 400) {
    if (!contentType?.startsWith('application/problem+json')) {
      throw new Error(`${where}: an error answer must be application/problem+json, got ${contentType}`);
    }
    check(Problem, body, where);
    return;
  }
  const bare = path.split('?')[0].replace(/\/+$/, '') || '/';
  const hit = table.find((r) => r.route.method === method.toUpperCase() && r.pattern.test(bare));
  if (!hit) throw new Error(`${where}: a success answer from a path no route declares`);
  const spec = hit.route.responses[status] as { schema?: z.ZodType } | undefined;
  if (!spec) throw new Error(`${where}: status not declared by ${hit.route.operationId}`);
  if (!spec.schema) {
    if (body !== undefined) throw new Error(`${where}: declared without a body, but answered one`);
    return;
  }
  if (!contentType?.startsWith('application/json')) return; // text answers (WhatsApp's challenge echo)
  check(spec.schema, body, where);
}

function check(schema: z.ZodType, body: unknown, where: string): void {
  const result = schema.safeParse(body);
  if (!result.success) {
    throw new Error(`${where}: body does not match its schema: ${JSON.stringify(result.error.issues)}`);
  }
  const extra = undeclaredKeys(body, result.data, '');
  if (extra.length > 0) throw new Error(`${where}: fields the schema does not declare: ${extra.join(', ')}`);
}

/** Keys of `sent` that parsing dropped: zod objects strip what their schema does not name. */
function undeclaredKeys(sent: unknown, parsed: unknown, at: string): string[] {
  if (Array.isArray(sent) && Array.isArray(parsed)) {
    return sent.flatMap((item, i) => undeclaredKeys(item, parsed[i], `${at}[${i}]`));
  }
  if (!isPlainObject(sent) || !isPlainObject(parsed)) return [];
  return Object.keys(sent).flatMap((key) =>
    key in parsed
      ? undeclaredKeys(sent[key], parsed[key], at ? `${at}.${key}` : key)
      : [at ? `${at}.${key}` : key],
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
