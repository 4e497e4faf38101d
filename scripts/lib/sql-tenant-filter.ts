// Raw SQL is outside the tenant scope of server/db/tenant-scope.ts, so every `.sql` statement on a
// tenant's rows must name the tenant itself. This reads each statement's plan, the way PostgreSQL
// will run it (`EXPLAIN (GENERIC_PLAN, VERBOSE)`: planned with its parameters unknown, nothing run),
// and requires every scan of a tenant table to be tied to the statement's `tenantId` parameter: a
// condition `alias.tenant_id = $n` where $n is the parameter named `tenantId` in the header, or
// `alias.tenant_id = other.tenant_id` where `other` is tied (a join, or a lateral's condition on its
// outer row). The planner has resolved CTEs, subqueries, views and aliases, and carried equalities
// across joins, so the conditions it prints are the ones that constrain each scan. An INSERT into a
// tenant table must name its tenant_id column. A statement that crosses tenants by design says why
// in its header (`-- @cross-tenant <why>`) and is not checked.
// Known blind spot: a tying equality under an OR still counts.
import type pg from 'pg';
import { parseHeader, type SqlFile, statementText } from './sql-types';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Alias?: string;
  Plans?: PlanNode[];
  [condition: string]: unknown;
}

/** The plan fields that hold conditions (a scan's own, a join's, a bitmap heap scan's recheck). */
const CONDITIONS = [
  'Index Cond',
  'Recheck Cond',
  'Filter',
  'Join Filter',
  'Hash Cond',
  'Merge Cond',
  'TID Cond',
  'One-Time Filter',
];

/** The tables with a `tenant_id` column: the tenant tables, by their SQL names. */
export async function tenantTables(client: pg.Client): Promise<Set<string>> {
  const { rows } = await client.query<{ table_name: string }>(
    `select table_name from information_schema.columns
     where table_schema = current_schema() and column_name = 'tenant_id'`,
  );
  return new Set(rows.map((r) => r.table_name));
}

// One side of an equality in a printed condition: `alias.tenant_id` or a parameter, maybe in
// parentheses and cast (`($1)::uuid`).
const SIDE = String.raw`\(*\s*(?:(\w+)\.tenant_id|\$(\d+))\s*\)*(?:::[\w"]+)?`;
const EQUALITY = new RegExp(`${SIDE}\\s*=\\s*${SIDE}`, 'g');

/** Why `file`'s statement may reach another tenant's rows (none: it names its tenant everywhere). */
export async function tenantFilterProblems(
  client: pg.Client,
  file: SqlFile,
  tenant: Set<string>,
): Promise<string[]> {
  const header = parseHeader(file);
  if (header.crossTenant) return [];
  const text = statementText(file);
  const problems: string[] = [];

  for (const insert of text.matchAll(
    /\binsert\s+into\s+(?:\w+\.)?"?(\w+)"?(?:\s+as\s+\w+)?\s*(\([^)]*\))?/gi,
  )) {
    const [, table, columns] = insert;
    if (tenant.has(table) && !/\btenant_id\b/.test(columns ?? '')) {
      problems.push(`inserts into ${table} without naming its tenant_id`);
    }
  }

  let plan: PlanNode;
  try {
    const { rows } = await client.query(`explain (generic_plan, verbose, format json) ${text}`);
    plan = rows[0]['QUERY PLAN'][0].Plan;
  } catch (error) {
    return [`cannot be planned: ${(error as Error).message}`];
  }
  const scans: { table: string; alias: string }[] = [];
  const conditions: string[] = [];
  const walk = (node: PlanNode) => {
    const table = node['Relation Name'];
    if (table && node['Node Type'] !== 'ModifyTable') scans.push({ table, alias: node.Alias ?? table });
    for (const key of CONDITIONS) if (typeof node[key] === 'string') conditions.push(node[key] as string);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(plan);

  const tenantParam = header.params.findIndex((p) => p.name === 'tenantId') + 1; // 0: none
  const tied = new Set<string>();
  const links: [string, string][] = [];
  for (const condition of conditions) {
    for (const [, leftAlias, leftParam, rightAlias, rightParam] of condition.matchAll(EQUALITY)) {
      if (leftAlias && rightAlias) links.push([leftAlias, rightAlias]);
      else if (leftAlias && Number(rightParam) === tenantParam) tied.add(leftAlias);
      else if (rightAlias && Number(leftParam) === tenantParam) tied.add(rightAlias);
    }
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const [a, b] of links) {
      if (tied.has(a) !== tied.has(b)) {
        tied.add(a);
        tied.add(b);
        grew = true;
      }
    }
  }
  for (const scan of scans) {
    if (tenant.has(scan.table) && !tied.has(scan.alias)) {
      const as = scan.alias === scan.table ? '' : ` (as ${scan.alias})`;
      problems.push(
        `reads ${scan.table}${as} without its tenant: no condition ties its tenant_id to the tenantId parameter`,
      );
    }
  }
  return [...new Set(problems)];
}
