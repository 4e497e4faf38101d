// Typed SQL without Prisma's native engine (which `prisma generate --sql` needs and cannot download
// here): each `.sql` file under server/ is prepared against a database with every migration applied
// (the protocol's Parse + Describe, so nothing runs), and a typed module is written beside it
// (`load-delivery.sql` → `load-delivery.ts`) that hands the statement, its parameter and row types
// and its columns to `typedSql` (server/db/typed-sql.ts).
//
// A file starts with comment lines: its description, then optional tags.
//   -- @param deliveryId        one per $n, in order: the names of the parameter tuple
//   -- @param objectId?         … and one that may be null
//   -- @not-null a, b           result columns that are never null though PostgreSQL cannot tell
//                               (expressions: count(*), coalesce(…), a column cast to another type)
//   -- @cross-tenant why        the statement reads or writes rows of many tenants by design (a
//                               worker's claim, retention, a lookup that finds the tenant): exempt
//                               from the tenant-filter check (./sql-tenant-filter.ts)
// A result column that comes straight from a table column (through joins, CTEs and RETURNING) is
// non-null when that column is NOT NULL, unless the statement has an outer join; any other column is
// nullable unless tagged @not-null.
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';

export interface SqlFile {
  /** Path of the .sql file, relative to the project root. */
  sqlPath: string;
  /** Path of the generated module beside it. */
  modulePath: string;
  source: string;
}

/** Every .sql file under `root` (default server/), with the module generated from it. */
export function findSqlFiles(root = 'server'): SqlFile[] {
  const out: SqlFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'generated' && entry.name !== 'node_modules') walk(full);
      } else if (entry.name.endsWith('.sql')) {
        out.push({
          sqlPath: full,
          modulePath: full.replace(/\.sql$/, '.ts'),
          source: readFileSync(full, 'utf8'),
        });
      }
    }
  };
  walk(root);
  return out.sort((a, b) => a.sqlPath.localeCompare(b.sqlPath));
}

export interface Header {
  description: string[];
  params: Array<{ name: string; nullable: boolean }>;
  notNull: Set<string>;
  /** Why the statement crosses tenants, when it does by design. */
  crossTenant: string | null;
}

export class SqlTypesError extends Error {}

export function parseHeader(file: SqlFile): Header {
  const header: Header = { description: [], params: [], notNull: new Set(), crossTenant: null };
  for (const line of file.source.split('\n')) {
    const comment = /^\s*--\s?(.*)$/.exec(line);
    if (!comment) break;
    const text = comment[1].trimEnd();
    const tag = /^@(\S+)\s*(.*)$/.exec(text);
    if (!tag) {
      header.description.push(text);
    } else if (tag[1] === 'param') {
      const param = /^([A-Za-z_][A-Za-z0-9_]*)(\?)?$/.exec(tag[2]);
      if (!param) throw new SqlTypesError(`${file.sqlPath}: @param needs one name, got "${tag[2]}"`);
      header.params.push({ name: param[1], nullable: param[2] === '?' });
    } else if (tag[1] === 'not-null') {
      for (const name of tag[2].split(',')) header.notNull.add(name.trim());
    } else if (tag[1] === 'cross-tenant') {
      if (!tag[2].trim()) throw new SqlTypesError(`${file.sqlPath}: @cross-tenant needs its reason`);
      header.crossTenant = tag[2].trim();
    } else {
      throw new SqlTypesError(`${file.sqlPath}: unknown tag @${tag[1]}`);
    }
  }
  return header;
}

/** The statement as sent: the file after its header comment, without a trailing semicolon. */
export function statementText(file: SqlFile): string {
  const lines = file.source.split('\n');
  const body = lines.findIndex((line) => !/^\s*--/.test(line));
  return (body === -1 ? '' : lines.slice(body).join('\n')).trim().replace(/;$/, '');
}

export interface DescribedField {
  name: string;
  tableID: number;
  columnID: number;
  dataTypeID: number;
}

export interface Described {
  params: number[];
  fields: DescribedField[];
}

/**
 * The protocol's Parse and Describe of an unnamed statement: parameter and result types as the
 * server infers them, without executing it. A `pg` submittable, so it queues like any query.
 */
class Describe extends EventEmitter {
  private params: number[] = [];
  private fields: DescribedField[] = [];
  private error: Error | null = null;
  private cleanup: () => void = () => {};
  readonly done: Promise<Described>;
  private settle!: { resolve: (d: Described) => void; reject: (e: Error) => void };

  constructor(private readonly text: string) {
    super();
    this.done = new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
    });
  }

  submit(connection: EventEmitter & Record<string, (...args: unknown[]) => void>) {
    const onParams = (msg: { dataTypeIDs: number[] }) => {
      this.params = msg.dataTypeIDs;
    };
    connection.on('parameterDescription', onParams);
    this.cleanup = () => connection.removeListener('parameterDescription', onParams);
    connection.parse({ text: this.text, types: [] });
    connection.describe({ type: 'S', name: '' });
    connection.sync();
  }

  handleRowDescription(msg: { fields: DescribedField[] }) {
    this.fields = msg.fields.map((f) => ({
      name: f.name,
      tableID: f.tableID,
      columnID: f.columnID,
      dataTypeID: f.dataTypeID,
    }));
  }

  handleError(error: Error) {
    this.error = error;
  }

  handleReadyForQuery() {
    this.cleanup();
    if (this.error) this.settle.reject(this.error);
    else this.settle.resolve({ params: this.params, fields: this.fields });
  }

  handleEmptyQuery() {}
  handleCommandComplete() {}
  handleDataRow() {}
}

export async function describeStatement(client: pg.Client, text: string): Promise<Described> {
  const describe = new Describe(text);
  (client as unknown as { query(q: unknown): void }).query(describe);
  return describe.done;
}

interface PgType {
  oid: number;
  name: string;
  type: string;
  category: string;
  elem: number;
  labels: string[] | null;
}

async function typesOf(client: pg.Client, oids: number[]): Promise<Map<number, PgType>> {
  const { rows } = await client.query<PgType>(
    `select t.oid::int as oid, t.typname as name, t.typtype as type, t.typcategory as category,
       t.typelem::int as elem,
       (select array_agg(e.enumlabel::text order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid) as labels
     from pg_type t
     where t.oid = any($1::oid[]) or t.oid in (select typelem from pg_type where oid = any($1::oid[]))`,
    [oids],
  );
  return new Map(rows.map((r) => [r.oid, r]));
}

/** Result columns taken from a NOT NULL table column, as `tableID:columnID`. */
async function notNullColumns(client: pg.Client, fields: DescribedField[]): Promise<Set<string>> {
  const origins = fields.filter((f) => f.tableID !== 0 && f.columnID > 0);
  if (origins.length === 0) return new Set();
  const { rows } = await client.query<{ key: string }>(
    `select a.attrelid::int || ':' || a.attnum as key from pg_attribute a
     join unnest($1::oid[], $2::int[]) as o(rel, num) on o.rel = a.attrelid and o.num = a.attnum
     where a.attnotnull`,
    [origins.map((f) => f.tableID), origins.map((f) => f.columnID)],
  );
  return new Set(rows.map((r) => r.key));
}

/** The TypeScript type of values of a PostgreSQL type, as both Prisma's raw queries and `pg` give them. */
function tsType(
  oid: number,
  types: Map<number, PgType>,
  where: string,
  direction: 'param' | 'result',
): string {
  const t = types.get(oid);
  if (!t) throw new SqlTypesError(`${where}: unknown type oid ${oid}`);
  if (t.category === 'A') return `${wrapUnion(tsType(t.elem, types, where, direction))}[]`;
  if (t.type === 'e') return (t.labels ?? []).map((l) => `'${l}'`).join(' | ');
  switch (t.name) {
    case 'text':
    case 'varchar':
    case 'bpchar':
    case 'name':
    case 'uuid':
    case 'citext':
      return 'string';
    case 'int2':
    case 'int4':
    case 'float4':
    case 'float8':
    case 'oid':
      return 'number';
    case 'bool':
      return 'boolean';
    case 'timestamptz':
    case 'timestamp':
    case 'date':
      return direction === 'param' ? 'Date | string' : 'Date';
    case 'json':
    case 'jsonb':
      return direction === 'param' ? 'string' : 'unknown';
    case 'void':
      return 'null';
    case 'interval':
      return 'string';
    default:
      // int8 and numeric come back as bigint/Decimal from Prisma but as strings from pg: cast them.
      throw new SqlTypesError(
        `${where}: type ${t.name} has no one TypeScript type for both drivers; cast it (e.g. ::int, ::text)`,
      );
  }
}

const wrapUnion = (type: string) => (type.includes('|') ? `(${type})` : type);

const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');

const camel = (name: string) => {
  const p = pascal(name);
  return p[0].toLowerCase() + p.slice(1);
};

const propertyKey = (name: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : `'${name}'`);

function templateLiteral(text: string): string {
  return `\`${text.replaceAll('\\', '\\\\').replaceAll('`', '\\`').replaceAll('${', '\\${')}\``;
}

/** The module generated from one .sql file (before formatting). */
export async function generateModule(client: pg.Client, file: SqlFile): Promise<string> {
  const header = parseHeader(file);
  const text = statementText(file);
  let described: Described;
  try {
    described = await describeStatement(client, text);
  } catch (error) {
    throw new SqlTypesError(`${file.sqlPath}: ${(error as Error).message}`);
  }
  if (header.params.length !== described.params.length) {
    throw new SqlTypesError(
      `${file.sqlPath}: ${described.params.length} parameter(s) but ${header.params.length} @param line(s)`,
    );
  }
  const names = described.fields.map((f) => f.name);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate) throw new SqlTypesError(`${file.sqlPath}: two result columns are named ${duplicate}`);
  const unknownTag = [...header.notNull].find((n) => !names.includes(n));
  if (unknownTag) throw new SqlTypesError(`${file.sqlPath}: @not-null names no result column: ${unknownTag}`);

  const types = await typesOf(client, [...described.params, ...described.fields.map((f) => f.dataTypeID)]);
  const notNull = /\b(left|right|full)\s+(outer\s+)?join\b/i.test(text)
    ? new Set<string>()
    : await notNullColumns(client, described.fields);

  const base = path.basename(file.sqlPath, '.sql');
  const constName = camel(base);
  const typeName = pascal(base);
  const params = described.params.map((oid, i) => {
    const type = tsType(oid, types, `${file.sqlPath} $${i + 1}`, 'param');
    return `${header.params[i].name}: ${header.params[i].nullable ? `${wrapUnion(type)} | null` : type}`;
  });
  const rows = described.fields.map((f) => {
    const type = tsType(f.dataTypeID, types, `${file.sqlPath} column ${f.name}`, 'result');
    const nonNull = header.notNull.has(f.name) || notNull.has(`${f.tableID}:${f.columnID}`);
    return `  ${propertyKey(f.name)}: ${nonNull || type === 'null' ? type : `${wrapUnion(type)} | null`};`;
  });
  const description = header.description.length > 0 ? header.description : [`The statement of ${base}.sql.`];
  return [
    `// Generated from ${base}.sql by \`npm run sql:types\` (scripts/sql-types.ts): do not edit.`,
    '// `npm run lint` fails when it no longer matches the .sql file and the migrated database.',
    "import { typedSql } from '@/server/db/typed-sql';",
    '',
    `export type ${typeName}Params = [${params.join(', ')}];`,
    '',
    rows.length > 0
      ? `export interface ${typeName}Row {\n${rows.join('\n')}\n}`
      : `export type ${typeName}Row = Record<string, never>;`,
    '',
    '/**',
    ...description.map((line) => ` *${line ? ` ${line}` : ''}`),
    ' */',
    `export const ${constName} = typedSql<${typeName}Params, ${typeName}Row>({`,
    `  name: '${base}',`,
    `  text: ${templateLiteral(text)},`,
    `  columns: [${names.map((n) => `'${n}'`).join(', ')}],`,
    '});',
    '',
  ].join('\n');
}

/** `code` formatted as the repository formats TypeScript (Biome, biome.json). */
export function formatTypeScript(code: string, filePath: string): string {
  const biome = path.join('node_modules', '.bin', 'biome');
  const result = spawnSync(biome, ['check', '--write', `--stdin-file-path=${filePath}`], {
    input: code,
    encoding: 'utf8',
  });
  if (result.status !== 0)
    throw new SqlTypesError(`${filePath}: biome could not format it:\n${result.stderr}`);
  return result.stdout;
}
