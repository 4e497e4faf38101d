// The assistant's tool lists in docs/integrators.md, written from the code: the tools of a staff
// credential (server/mcp/tools.ts) and those of an assistant session (server/mcp/session-tools.ts),
// each tool with the operation it runs and its input fields, between each list's markers below. `npm
// run mcp:docs` rewrites them; `--check` (npm run lint, so CI) fails when a committed list is not what
// the code declares, as `client:check` does for the typed client.
import { readFileSync, writeFileSync } from 'node:fs';
import { SESSION_TOOLS } from '@/server/mcp/session-tools';
import { type AssistantTool, inputSchemaOf } from '@/server/mcp/tool';
import { ASSISTANT_TOOLS } from '@/server/mcp/tools';

const DOC = 'docs/integrators.md';
const LISTS = [
  { marker: 'mcp-tools', source: 'server/mcp/tools.ts', tools: ASSISTANT_TOOLS },
  { marker: 'mcp-session-tools', source: 'server/mcp/session-tools.ts', tools: SESSION_TOOLS },
];
const markers = (list: (typeof LISTS)[number]) => ({
  start: `<!-- ${list.marker}:start (written by \`npm run mcp:docs\` from ${list.source}; do not edit) -->`,
  end: `<!-- ${list.marker}:end -->`,
});

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

/** What a session binds: the route's path id (this conversation) and fields (`customer`). */
function boundOf(tool: AssistantTool): string {
  const bound = Object.keys(tool.bind ?? {}).map((field) => (field === 'id' ? 'this conversation' : field));
  return bound.length > 0 ? `; bound: ${bound.join(', ')}` : '';
}

function table(tools: readonly AssistantTool[]): string {
  const rows = tools.map((tool) => {
    const fields = fieldsOf(inputSchemaOf(tool) as Schema) || 'none';
    const oneOf = tool.requireOneOf?.length ? ` (at least one of ${tool.requireOneOf.join(', ')})` : '';
    return `| \`${tool.name}\` | \`${tool.route.method} /api/v1${tool.route.path}\` | ${fields}${oneOf}${boundOf(tool)} | ${cell(lead(tool.description))} |`;
  });
  return ['| tool | runs | input fields (`?` optional) | for |', '|---|---|---|---|', ...rows].join('\n');
}

const text = readFileSync(DOC, 'utf8');
let next = text;
for (const list of LISTS) {
  const { start, end } = markers(list);
  const from = next.indexOf(start);
  const to = next.indexOf(end);
  if (from < 0 || to < from) {
    console.error(`${DOC} has no ${start} … ${end} markers`);
    process.exit(1);
  }
  next = `${next.slice(0, from + start.length)}\n${table(list.tools)}\n${next.slice(to)}`;
}
if (process.argv.includes('--check')) {
  if (next !== text) {
    console.error(
      `${DOC}: the assistant's tool lists are out of date: run \`npm run mcp:docs\` and commit them.`,
    );
    process.exit(1);
  }
} else if (next !== text) {
  writeFileSync(DOC, next);
  console.log(`${DOC}: tool lists written`);
}
