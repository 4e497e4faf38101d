// Writes the generated OpenAPI document (the one GET /api/v1/openapi.json serves) to a file:
// `tsx scripts/write-openapi.ts <path>`. Used by `npm run lint:openapi` and the typed client's check.
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '@/server/api/openapi';
import { routes } from '@/server/api/routes';

const target = process.argv[2];
if (!target) {
  console.error('usage: tsx scripts/write-openapi.ts <output.json>');
  process.exit(2);
}
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(routes), null, 2)}\n`);
