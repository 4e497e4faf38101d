// The assistant's tool list in docs/integrators.md, written from the code (server/mcp/tools.ts): each
// tool with the operation it runs and its input fields, between the markers below. `npm run mcp:docs`
// rewrites it; `--check` (npm run lint, so CI) fails when the committed list is not what the code
// declares, as `client:check` does for the typed client.
import { readFileSync, writeFileSync } from 'node:fs';
import { inputSchemaOf } from '@/server/mcp/tool';
import { ASSISTANT_TOOLS } from '@/server/mcp/tools';

const DOC = 'docs/integrators.md';
const START =
  '<!-- mcp-tools:start (written by `npm run mcp:docs` from server/mcp/tools.ts; do not edit) -->';
const END = '<!-- mcp-tools:end -->';

/** The first sentence of a description. */
const lead = (text: string) => /^.*?[.:](?=\s|$)/.exec(text)?.[0].replace(/:$/, '.') ?? text;
const cell = (text: string) => text.replace(/\|/g, '\\|');

type Schema = { properties?: Record<string, Schema>; required?: string[]; type?: unknown };

/** `name`, `name?` for an optional one, and an object's own fields in parentheses: `customer` (`name`, `phone?`). */
function fieldsOf(schema: Schema): string {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {})
    .map(([name, field]) => {
      const own = field.type === 'object' && field.properties ? ` (${fieldsOf(field)})` : '';
      return `\`${name}${required.has(name) ? '' : '?'}\`${own}`;
    })
    .join(', ');
}

function table(): string {
  const rows = ASSISTANT_TOOLS.map((tool) => {
    const fields = fieldsOf(inputSchemaOf(tool) as Schema);
    const oneOf = tool.requireOneOf?.length ? ` (at least one of ${tool.requireOneOf.join(', ')})` : '';
    return `| \`${tool.name}\` | \`${tool.route.method} /api/v1${tool.route.path}\` | ${fields}${oneOf} | ${cell(lead(tool.description))} |`;
  });
  return ['| tool | runs | input fields (`?` optional) | for |', '|---|---|---|---|', ...rows].join('\n');
}

const text = readFileSync(DOC, 'utf8');
const from = text.indexOf(START);
const to = text.indexOf(END);
if (from < 0 || to < from) {
  console.error(`${DOC} has no ${START} … ${END} markers`);
  process.exit(1);
}
const next = `${text.slice(0, from + START.length)}\n${table()}\n${text.slice(to)}`;
if (process.argv.includes('--check')) {
  if (next !== text) {
    console.error(
      `${DOC}: the assistant's tool list is out of date: run \`npm run mcp:docs\` and commit it.`,
    );
    process.exit(1);
  }
} else if (next !== text) {
  writeFileSync(DOC, next);
  console.log(`${DOC}: tool list written`);
}
