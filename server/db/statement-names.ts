// Named (prepared) statements: parsed and planned once per connection instead of on every query.
// PostgreSQL keeps a named statement in the server session that prepared it; a transaction-mode
// pooler hands the next query another session, so behind one nothing is named (docs/deploying.md).

/** A pooler is assumed when DIRECT_URL is set apart from DATABASE_URL. */
function behindPooler(): boolean {
  const direct = process.env.DIRECT_URL;
  return Boolean(direct) && direct !== process.env.DATABASE_URL;
}

/** A prepared statement's name, or none behind a transaction-mode pooler. */
export function statementName(name: string): string | undefined {
  return behindPooler() ? undefined : name;
}

/**
 * How many distinct statement texts one client names. Each connection prepares a named statement
 * the first time it runs it and keeps it until it closes; the texts a service sends are a fixed set in
 * practice, but a query shape that varies (a list expanded into placeholders) must not grow every
 * session's memory without end: past this many texts, statements go unnamed as before.
 */
const MAX_NAMED_STATEMENTS = 2000;

/**
 * The statement names of Prisma's queries (@prisma/adapter-pg's `statementNameGenerator`): one per
 * distinct SQL text, or none behind a pooler. An empty name is PostgreSQL's unnamed statement.
 */
export function prismaStatementNames(
  max = MAX_NAMED_STATEMENTS,
): ((query: { sql: string }) => string) | undefined {
  if (behindPooler()) return undefined;
  const names = new Map<string, string>();
  return ({ sql }) => {
    let name = names.get(sql);
    if (name === undefined) {
      if (names.size >= max) return '';
      name = `prisma_${names.size.toString(36)}`;
      names.set(sql, name);
    }
    return name;
  };
}
